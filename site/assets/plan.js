// plan.js: the playground's plan tab. "Search the plans" asks the app
// (window.paraplay.plan) to search every parallel plan of the scenario on
// show, for the same model, cluster and global batch; the app runs the
// search between frames and draws the plans as a scatter on the canvas.
// This script mirrors the search's progress in the side panel and, when a
// point is clicked on the canvas (planState().pickedN grows), asks play.js
// to run that plan like any other address (the "paraplay-run" event).
// With plan=1 in the address (an article's embedded planner), the search
// starts by itself once the app runs; the playback bar's "Plans" button
// switches between the scatter and the animation, for pages without the
// side panel.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  let app = null, seen = 0, pending = false;

  // The button works from the start: a click before the app's first frame
  // is kept and acted on in ready.
  if ($("plan-start")) {
    $("plan-start").addEventListener("click", () => {
      if (app) { start(); return; }
      pending = true;
      $("plan-status").textContent = "Starting…";
    });
  }

  // ready runs once play.js has wired the page to the app (after its
  // first frame; never when the app failed to start).
  function ready() {
    const a = window.paraplay;
    if (!a || !a.planState || !a.current || !a.current() || !$("plan-start")) return;
    app = a;
    const flip = () => app.planView(!app.planState().shown);
    $("plan-toggle").addEventListener("click", flip);
    $("plan-bar").addEventListener("click", flip);
    const cur = app.current();
    if (pending || (cur && cur.ok && cur.plan)) start();
    requestAnimationFrame(frame);
  }

  function start() {
    const cur = app.current();
    const r = app.plan(cur ? cur.query : location.search.slice(1));
    $("plan-status").textContent = r.ok ? "Searching…" : r.error;
  }

  // formLayout writes a picked plan's mesh layout on a 2D TPU slice as
  // the form's layout select does: the planner names the layouts with the
  // slice's z axis of one chip (yxz), the select without it (yx).
  function formLayout(query) {
    const q = new URLSearchParams(query), l = q.get("mesh_layout") || "";
    if (!l || (q.get("topology") || "").split("x").length !== 2) return query;
    if (l.replace("z", "") === "xy") q.delete("mesh_layout"); else q.set("mesh_layout", l.replace("z", ""));
    return q.toString();
  }

  function frame() {
    const st = app.planState();
    if (st.active) {
      $("plan-progress").value = st.fraction;
      let msg = st.phase + ": " + st.screened + " of " + st.plans + " plans screened, " + st.outOfMemory +
        " out of memory, " + (st.bounded + st.dominated) + " ruled out, " + st.simulated + " simulated";
      if (st.best > 0) msg += "; best " + st.best.toPrecision(3) + " s";
      $("plan-status").textContent = msg;
      const t = $("plan-toggle");
      t.hidden = false;
      t.textContent = st.shown ? "Back to the animation" : "Show the plans";
      const b = $("plan-bar");
      b.hidden = false;
      b.textContent = st.shown ? "Animation" : "Plans";
      if (st.pickedN !== seen) {
        seen = st.pickedN;
        document.dispatchEvent(new CustomEvent("paraplay-run", { detail: formLayout(st.picked) }));
      }
    }
    requestAnimationFrame(frame);
  }

  document.addEventListener("paraplay-started", ready, { once: true });
})();
