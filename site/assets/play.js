// play.js is the playground around the ParaPlay wasm app in play.html. It
// loads paraplay.wasm (telling the reader when WebGL2 is missing); after the
// app's first frame it builds the form from
// the app's field table (window.paraplay.current().controls), re-runs the
// simulation through window.paraplay.run(query) when a control changes,
// keeps the address bar in step (history.replaceState), and drives the
// playback bar, the metrics, the inspector tooltip, the keyboard and the
// share buttons. URL text is untrusted: it reaches the page only through
// textContent, .value and attribute escaping, never as markup. A run that
// kills the app (out of memory) is remembered for the tab, so a reload
// offers the defaults rather than crashing again (see "crashes" below).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const root = document.documentElement;
  const status = $("status"), loading = $("loading"), problem = $("problem");
  const VIEW = ["speed", "autoplay", "loop", "t", "embed", "hide"];
  let app = null;       // window.paraplay once the wasm runs
  let lastResult = null;
  let scrubbing = false;

  // showProblem replaces the loading message with an error box (textContent
  // only: messages may echo parts of the URL).
  function showProblem(title, detail, actions) {
    loading.hidden = true;
    problem.hidden = false;
    problem.querySelector("strong").textContent = title;
    problem.querySelector("span").textContent = detail || "";
    const old = problem.querySelector(".actions");
    if (old) old.remove();
    if (actions && actions.length) {
      const p = el("p", { class: "actions" });
      p.append(...actions);
      problem.append(p);
    }
    status.hidden = false;
  }

  function hasWebGL2() {
    try { return !!document.createElement("canvas").getContext("webgl2"); } catch (e) { return false; }
  }

  function el(tag, props, text) {
    const e = document.createElement(tag);
    if (props) for (const k in props) e.setAttribute(k, props[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // --- the address ---------------------------------------------------------

  function viewParams() {
    const cur = new URLSearchParams(location.search), out = new URLSearchParams();
    for (const p of VIEW) if (p !== "t" && cur.has(p)) out.set(p, cur.get(p));
    return out;
  }

  function setAddress(query) {
    const url = location.pathname + (query ? "?" + query : "") + location.hash;
    history.replaceState(null, "", url);
  }

  function setViewParam(name, value) {
    const q = new URLSearchParams(location.search);
    if (value === null) q.delete(name); else q.set(name, value);
    setAddress(q.toString());
  }

  // --- running -------------------------------------------------------------

  // run asks the app for a new run and shows its result.
  function run(query) {
    running(query);
    let r;
    try {
      r = app.run(query);
    } catch (e) {
      r = null; // the app died in this run; start() reports it
    }
    if (!r) return null;
    running(null);
    setAddress(r.query);
    show(r);
    $("controls").hidden = false;
    return r;
  }

  // derived lists the controls a TPU mesh in the form stands for: dp, tp,
  // cp and pp, and zero (3) with an fsdp axis (parallel.mesh, Mesh.plan in
  // sim/scenario/torus.go). The form shows them disabled and sends none.
  function derived() {
    const form = $("controls"), v = (n) => { const e = form.elements.namedItem(n); return e ? parseInt(e.value, 10) || 0 : 0; };
    if (v("mesh_data") + v("mesh_fsdp") + v("mesh_seq") + v("mesh_model") <= 0) return [];
    return v("mesh_fsdp") > 1 ? ["dp", "tp", "cp", "pp", "zero"] : ["dp", "tp", "cp", "pp"];
  }

  // formQuery is the form as a query, less what the mesh stands for (as it
  // is after the change: derived). sets, the query a picked option carries
  // (sliceSets), goes over it; its empty values drop keys.
  function formQuery(sets) {
    const q = viewParams(), d = derived();
    for (const e of $("controls").elements) {
      if (e.name && e.value !== "" && !d.includes(e.name)) q.set(e.name, e.value);
    }
    for (const [k, v] of new URLSearchParams(sets || "")) {
      if (v === "") q.delete(k); else q.set(k, v);
    }
    return q.toString();
  }

  function show(r) {
    lastResult = r;
    applyView(r);
    renderControls(r.controls, r.errorParams || []);
    renderMetrics(r.metrics);
    $("describe").textContent = r.ok ? r.title + ": " + r.describe + "." : r.errorTitle;
    $("live").textContent = r.ok ? "Showing " + r.title + ": " + r.describe + "." : r.errorTitle + ". " + r.error;
    $("errbar").hidden = r.ok;
    document.title = (r.ok ? r.title : "Error") + " · ParaPlay";
    const open = new URLSearchParams(r.query);
    open.delete("embed");
    $("open").href = "play.html" + (open.toString() ? "?" + open : "");
  }

  function applyView(r) {
    root.classList.toggle("embed", !!r.embed);
    const hide = r.hide || [];
    root.classList.toggle("hide-controls", hide.includes("controls"));
    root.classList.toggle("hide-metrics", hide.includes("metrics"));
    if (hide.includes("controls") && hide.includes("metrics") && !r.embed) root.style.setProperty("--side", "0px");
    else root.style.removeProperty("--side");
  }

  // --- the form --------------------------------------------------------------

  function renderControls(list, bad) {
    const form = $("controls");
    const groups = {};
    for (const fs of form.querySelectorAll("fieldset")) groups[fs.dataset.group] = fs;
    for (const c of list) {
      let input = form.elements.namedItem(c.name);
      if (!input) input = createControl(form, groups, c);
      if (c.kind === "select") setOptions(input, c.options);
      if (document.activeElement !== input || input.value !== c.value) input.value = c.value;
      input.setAttribute("aria-invalid", bad.includes(c.name) ? "true" : "false");
      input.title = c.key + ": " + c.help;
      input.closest(".row").classList.toggle("inactive", !!c.inactive);
    }
    const d = derived();
    for (const n of ["dp", "tp", "cp", "pp", "zero"]) {
      const e = form.elements.namedItem(n);
      if (e) e.disabled = d.includes(n);
    }
  }

  function createControl(form, groups, c) {
    let fs = groups[c.group];
    if (!fs) {
      fs = el("fieldset");
      fs.dataset.group = c.group;
      fs.append(el("legend", null, c.group));
      form.append(fs);
      groups[c.group] = fs;
    }
    const row = el("div", { class: "row" });
    const id = "c-" + c.name;
    row.append(el("label", { for: id }, c.label));
    let input;
    if (c.kind === "select") {
      input = el("select", { id: id, name: c.name });
    } else {
      input = el("input", { id: id, name: c.name, type: c.kind === "number" ? "number" : "text", autocomplete: "off", spellcheck: "false" });
      if (c.min !== undefined) input.min = c.min;
      if (c.max !== undefined) input.max = c.max;
      if (c.step) input.step = c.step;
      if (c.kind === "text") input.placeholder = c.help;
    }
    input.addEventListener("change", () => {
      // A new operation may not know the old algorithm; auto knows them all.
      if (c.name === "op" && form.elements.namedItem("algo")) form.elements.namedItem("algo").value = "auto";
      const picked = input.selectedOptions && input.selectedOptions[0];
      run(formQuery(picked ? sliceSets(c.name, picked) : ""));
    });
    row.append(input);
    fs.append(row);
    return input;
  }

  // sliceSets is what a pick of an accelerator or a TPU slice also sets
  // (the page's half of wasm/playground/slices.go): the slice a TPU option
  // carries and the servers' keys cleared; leaving a slice for GPUs, its
  // keys cleared, servers of up to 8 GPUs as many as its chips, and the
  // mesh's plan written out from the controls it fills (disabled: not
  // sent); on a new slice, a training plan kept whole on its chips by
  // resizing the mesh's data axis, or without a mesh dp.
  function sliceSets(name, picked) {
    const form = $("controls"), q = new URLSearchParams(picked.dataset.sets);
    const val = (n) => { const e = form.elements.namedItem(n); return e ? e.value : ""; };
    const chips = (t) => t.split("x").reduce((p, v) => p * (parseInt(v, 10) || 0), 1) * Math.max(1, parseInt(val("slices"), 10) || 1);
    let shape = name === "topology" ? picked.value : q.get("topology");
    if (name === "gpu" && shape) {
      for (const k of ["nodes", "gpus_per_node", "link", "inter", "network", "oversubscription", "node_gpus"]) q.set(k, "");
    } else if (name === "gpu" && val("topology")) {
      const n = chips(val("topology")), per = n % 8 ? n : 8;
      for (const k of ["topology", "slices", "twisted", "wraparound", "mesh_data", "mesh_fsdp", "mesh_seq", "mesh_model", "mesh_layout"]) q.set(k, "");
      if (picked.value) { q.set("nodes", n / per); q.set("gpus_per_node", per); } else q.set("gpus", n);
      for (const e of form.elements) if (e.disabled && e.name) q.set(e.name, e.value);
    }
    if (!shape || val("strategy") !== "training") return q.toString();
    const n = chips(shape), prod = (ks) => ks.reduce((p, k) => p * Math.max(1, parseInt(val(k), 10) || 1), 1);
    const mesh = ["mesh_data", "mesh_fsdp", "mesh_seq", "mesh_model"].some((k) => parseInt(val(k), 10) > 0);
    const [key, inner] = mesh ? ["mesh_data", prod(["mesh_fsdp", "mesh_seq", "mesh_model"])] : ["dp", prod(["tp", "cp", "pp"])];
    if (n % inner === 0) q.set(key, n / inner);
    return q.toString();
  }

  function setOptions(select, options) {
    const same = select.options.length === options.length &&
      options.every((o, i) => select.options[i].value === o.value && select.options[i].dataset.sets === (o.sets || ""));
    if (same) return;
    select.replaceChildren(...options.map((o) => {
      const e = el("option", null, o.label);
      e.value = o.value;
      e.dataset.sets = o.sets || "";
      return e;
    }));
  }

  // --- metrics ---------------------------------------------------------------

  function renderMetrics(m) {
    const totals = $("totals"), body = $("colls").tBodies[0], busy = $("busy");
    if (!m) {
      totals.replaceChildren(el("dt", null, "no run"), el("dd", null, "—"));
      body.replaceChildren();
      busy.replaceChildren();
      return;
    }
    // A long run sends its own rows (its headline numbers).
    const rows = m.rows ? m.rows.map((r) => [r.key, r.value]).concat([["fidelity", m.fidelity]]) :
      [["iteration", m.iteration], ["compute (mean)", m.compute], ["communication", m.communication],
        ["exposed communication", m.exposed], ["fidelity", m.fidelity]];
    totals.replaceChildren(...rows.flatMap(([k, v]) => [el("dt", null, k), el("dd", { "data-metric": k }, v)]));
    body.replaceChildren(...(m.collectives || []).map((c) => {
      const tr = el("tr");
      tr.append(el("td", { title: c.ranks + " ranks, " + c.bytes }, c.algorithm + " " + c.name), el("td", null, c.time),
        el("td", null, c.algbw), el("td", null, c.busbw));
      return tr;
    }));
    busy.replaceChildren(...(m.gpus || []).map((g) => {
      const d = el("div", { class: "busy", title: g.name + ": busy " + g.busyPct + " (compute " + g.compute + ", communication " + g.comm + ")" });
      const bar = el("i");
      bar.style.width = Math.max(0, Math.min(100, 100 * g.busy)) + "%";
      d.append(bar, el("span", null, g.busyPct));
      return d;
    }));
  }

  // --- playback bar, tooltip, keyboard -----------------------------------------

  function fmtTime(ns) {
    if (!(ns > 0)) return "0";
    if (ns < 1e3) return ns.toFixed(0) + "ns";
    if (ns < 1e6) return (ns / 1e3).toPrecision(3) + "µs";
    if (ns < 1e9) return (ns / 1e6).toPrecision(3) + "ms";
    // Long runs last hours or days.
    if (ns >= 2 * 86400e9) return (ns / 86400e9).toPrecision(3) + "d";
    if (ns >= 2 * 3600e9) return (ns / 3600e9).toPrecision(3) + "h";
    return (ns / 1e9).toPrecision(3) + "s";
  }
  function fmtSpeed(s) { return "×" + (s >= 10 ? s.toFixed(0) : s.toPrecision(2)); }

  let pointer = null, lastSpeed = null;
  function frame() {
    const p = app;
    if (p.frames > 0 && !status.hidden && problem.hidden) status.hidden = true;
    const playing = p.state === "playing";
    const t = $("toggle");
    t.classList.toggle("playing", playing);
    t.setAttribute("aria-label", playing ? "Pause" : "Play");
    root.classList.toggle("paused", !playing);
    if (!scrubbing && p.end > 0) $("scrub").value = String(Math.round(1000 * p.simTime / p.end));
    $("clock").textContent = fmtTime(p.simTime) + " / " + fmtTime(p.end);
    if (p.speed !== lastSpeed) {
      lastSpeed = p.speed;
      if (document.activeElement !== $("speed")) $("speed").value = String(Math.log10(p.speed));
      $("speedout").textContent = fmtSpeed(p.speed);
      if (p.state !== "loading" && p.state !== "error") {
        const cur = new URLSearchParams(location.search).get("speed");
        const want = Math.abs(p.speed - 1) < 1e-9 ? null : String(+p.speed.toPrecision(3));
        if (cur !== want && !(cur === null && want === null)) setViewParam("speed", want);
      }
    }
    $("loop").checked = p.loop;
    const tip = $("tip");
    if (pointer && p.hoverText) {
      tip.textContent = p.hoverText;
      tip.hidden = false;
      const x = Math.min(pointer.x + 14, innerWidth - tip.offsetWidth - 4);
      const y = pointer.y + 18 + tip.offsetHeight > innerHeight ? pointer.y - tip.offsetHeight - 8 : pointer.y + 18;
      tip.style.left = Math.max(4, x) + "px";
      tip.style.top = Math.max(4, y) + "px";
    } else {
      tip.hidden = true;
    }
    requestAnimationFrame(frame);
  }

  function toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (root.requestFullscreen) root.requestFullscreen().catch(() => {});
  }

  const keys = {
    " ": () => app.toggle(), "ArrowRight": () => app.step(1), "PageDown": () => app.step(1),
    "ArrowLeft": () => app.step(-1), "PageUp": () => app.step(-1), "+": () => app.faster(), "=": () => app.faster(),
    "-": () => app.slower(), "_": () => app.slower(), "Home": () => app.restart(), "End": () => app.toEnd(),
    "f": toggleFullscreen, "F": toggleFullscreen,
  };

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target, tag = t && t.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || (t && t.isContentEditable)) return;
    if (tag === "INPUT" && t.type !== "range" && t.type !== "checkbox") return;
    if (tag === "INPUT" && t.type === "range" && e.key.startsWith("Arrow")) return;
    if ((tag === "BUTTON" || tag === "A") && (e.key === " " || e.key === "Enter")) return;
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  }

  function wire() {
    $("toggle").addEventListener("click", () => app.toggle());
    $("prev").addEventListener("click", () => app.step(-1));
    $("next").addEventListener("click", () => app.step(1));
    const scrub = $("scrub");
    scrub.addEventListener("input", () => { scrubbing = true; app.pause(); app.seekFraction(scrub.value / 1000); });
    scrub.addEventListener("change", () => { scrubbing = false; });
    $("speed").addEventListener("input", (e) => app.setSpeed(Math.pow(10, +e.target.value)));
    $("loop").addEventListener("change", (e) => {
      app.setLoop(e.target.checked);
      setViewParam("loop", e.target.checked ? null : "0"); // looping is the default
    });
    $("fullscreen").addEventListener("click", toggleFullscreen);
    document.addEventListener("fullscreenchange", () => root.classList.toggle("fs", !!document.fullscreenElement));
    $("reset").addEventListener("click", () => {
      const q = new URLSearchParams();
      const cur = new URLSearchParams(location.search);
      for (const p of ["embed", "hide"]) if (cur.has(p)) q.set(p, cur.get(p));
      run(q.toString());
    });
    document.addEventListener("keydown", onKey);
    // The plan tab (plan.js) asks for a plan picked on the canvas.
    document.addEventListener("paraplay-run", (e) => {
      const q = new URLSearchParams(e.detail);
      for (const [k, v] of viewParams()) q.set(k, v);
      run(q.toString());
    });
    // trace.js shows a measured run it imported: the address keeps only
    // the view, since the run lives in no address.
    document.addEventListener("paraplay-imported", (e) => {
      const q = viewParams(); // a run from ?trace= keeps its address: it can be shared
      for (const u of e.detail.traceURLs || []) q.append("trace", u);
      setAddress(q.toString());
      show(e.detail);
      $("controls").hidden = true; // the form describes a scenario; this run has none
    });
    // The canvas is Ebitengine's; listen on the document for its events.
    const at = (e) => { pointer = e.target.tagName === "CANVAS" ? { x: e.clientX, y: e.clientY } : null; };
    document.addEventListener("pointermove", at);
    document.addEventListener("pointerdown", at);
    document.addEventListener("pointerleave", () => { pointer = null; });
    $("copy-link").addEventListener("click", () => copy(location.href, "Link copied."));
    $("copy-embed").addEventListener("click", () => copy(embedCode(), "Embed code copied."));
    $("download").addEventListener("click", download);
    $("compare").addEventListener("click", () => {
      const own = new URLSearchParams(location.search);
      for (const p of VIEW) own.delete(p);
      const q = new URLSearchParams();
      q.set("a", own.toString());
      q.set("b", own.toString());
      location.href = "play.html?" + q.toString();
    });
  }

  // --- sharing -----------------------------------------------------------------

  function escapeAttr(s) {
    return String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function embedCode() {
    const u = new URL(location.href);
    u.searchParams.set("embed", "1");
    u.searchParams.delete("hide");
    const title = "ParaPlay: " + (lastResult ? lastResult.title : "demo");
    return '<iframe src="' + escapeAttr(u.href) + '" width="960" height="600" style="border:0;max-width:100%" ' +
      'title="' + escapeAttr(title) + '" loading="lazy" allow="fullscreen; clipboard-write"></iframe>';
  }

  function say(msg) { $("share-status").textContent = msg; }

  function copy(text, done) {
    const fallback = () => {
      const ta = el("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.style.position = "fixed"; ta.style.opacity = "0";
      document.body.append(ta);
      ta.select();
      let ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      ta.remove();
      say(ok ? done : "Copy failed; select and copy this: " + text);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(() => say(done), fallback);
    } else {
      fallback();
    }
  }

  function download() {
    const json = app.trace();
    if (!json) { say("No run to download."); return; }
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([json], { type: "application/json" }));
    a.download = "paraplay-trace.json";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    say("Trace saved: open it in ui.perfetto.dev or chrome://tracing.");
  }

  // --- compare mode ----------------------------------------------------------
  // play.html?a=<query>&b=<query> shows two runs side by side, each an
  // embedded play.html, on one clock: the longer run leads and the other
  // shows the leader's instant. No wasm runs in this page itself.

  function compareMode(q) {
    root.classList.add("compare");
    $("cmp").hidden = false;
    const sides = ["a", "b"].map((k) => {
      const own = new URLSearchParams(q.get(k) || "");
      for (const p of VIEW) own.delete(p);
      const sub = new URLSearchParams(own);
      sub.set("embed", "1");
      sub.set("autoplay", "0");
      const fig = el("figure"), cap = el("figcaption");
      const link = el("a", { target: "_blank", rel: "noopener" }, k.toUpperCase() + " · edit in the playground ↗");
      link.href = "play.html" + (own.toString() ? "?" + own : "");
      cap.append(link);
      const frame = el("iframe", { title: "Run " + k.toUpperCase(), allow: "fullscreen" });
      frame.src = "play.html?" + sub.toString();
      fig.append(cap, frame);
      $("cmp-frames").append(fig);
      return { frame: frame, cap: cap };
    });
    const bridge = (s) => {
      try { const p = s.frame.contentWindow.paraplay; return p && p.current && p.frames > 0 ? p : null; } catch (e) { return null; }
    };
    let lead = null, follow = null;
    const reduced = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    function tick() {
      const A = bridge(sides[0]), B = bridge(sides[1]);
      if (A && B && !lead) {
        const ra = A.current(), rb = B.current();
        if (ra.ok && rb.ok) {
          [lead, follow] = A.end >= B.end ? [A, B] : [B, A];
          sides[lead === A ? 1 : 0].frame.contentDocument.documentElement.classList.add("follower");
          follow.pause();
          if (!reduced) lead.play();
        }
        compareTable(ra, rb);
      }
      if (lead) {
        follow.seek(Math.min(lead.simTime, follow.end));
        $("cmp-clock").textContent = fmtTime(lead.simTime) + " / " + fmtTime(lead.end) + (lead.state === "playing" ? "" : " (paused)");
      }
      requestAnimationFrame(tick);
    }
    $("cmp-toggle").addEventListener("click", () => lead && lead.toggle());
    $("cmp-prev").addEventListener("click", () => lead && lead.step(-1));
    $("cmp-next").addEventListener("click", () => lead && lead.step(1));
    document.addEventListener("keydown", (e) => {
      if (!lead || e.ctrlKey || e.metaKey || e.altKey) return;
      const f = { " ": () => lead.toggle(), "ArrowRight": () => lead.step(1), "PageDown": () => lead.step(1),
        "ArrowLeft": () => lead.step(-1), "PageUp": () => lead.step(-1), "Home": () => lead.restart(),
        "End": () => lead.toEnd(), "+": () => lead.faster(), "=": () => lead.faster(), "-": () => lead.slower() }[e.key];
      if (f && !(e.target && e.target.tagName === "BUTTON" && e.key === " ")) { e.preventDefault(); f(); }
    });
    requestAnimationFrame(tick);
  }

  // compareTable diffs the two runs' metrics (textContent only).
  function compareTable(ra, rb) {
    for (const [r, i] of [[ra, 0], [rb, 1]]) {
      const cap = document.querySelectorAll("#cmp-frames figcaption")[i];
      if (cap.childNodes.length > 1) continue;
      cap.append(el("span", null, " — " + (r.ok ? r.title : r.errorTitle + ": " + r.error)));
    }
    const ma = ra.metrics || {}, mb = rb.metrics || {};
    const ratio = (a, b) => (a > 0 && b >= 0 ? (b / a).toFixed(2) + "×" : "—");
    const rows = [["iteration", "iteration", "iterationNs"], ["compute (mean)", "compute", "computeNs"],
      ["communication", "communication", "communicationNs"], ["exposed communication", "exposed", "exposedNs"]];
    const body = $("cmp-table").tBodies[0];
    body.replaceChildren(...rows.map(([label, k, ns]) => {
      const tr = el("tr");
      tr.append(el("th", null, label), el("td", null, ma[k] || "—"), el("td", null, mb[k] || "—"), el("td", null, ratio(ma[ns], mb[ns])));
      return tr;
    }));
    const c = (m) => (m.collectives && m.collectives[0]) || null;
    if (c(ma) || c(mb)) {
      const tr = el("tr");
      const f = (x) => (x ? x.algorithm + " " + x.name + ": " + x.time + ", busbw " + x.busbw : "—");
      tr.append(el("th", null, "first collective"), el("td", null, f(c(ma))), el("td", null, f(c(mb))), el("td", null, ""));
      body.append(tr);
    }
  }

  // --- crashes -----------------------------------------------------------------
  // A run can kill the app: the Go runtime's "out of memory" is a fatal
  // error, not a panic the app could turn into a message, and reloading the
  // same address would run it, and crash, again. So the query of the run in
  // progress is kept in sessionStorage until the app comes back from it; a
  // crash files it with the runtime's last words, and a page whose address
  // is a filed crash offers the defaults instead of running it again.

  // Keys are per query: an article's iframes share the tab's storage.
  const RUNNING = "paraplay-running:", CRASHED = "paraplay-crashed:";
  let inFlight = null; // the query this page's app is running, if any
  let stderr = ""; // the tail of the Go runtime's output (fatal errors go there)

  function store(key, value) {
    try {
      if (value === null) sessionStorage.removeItem(key); else sessionStorage.setItem(key, value);
    } catch (e) { /* storage off: a crash is then reported but not remembered */ }
  }
  function stored(key) {
    try { return sessionStorage.getItem(key); } catch (e) { return null; }
  }
  function ownQuery() { return location.search.replace(/^\?/, ""); }
  function running(query) {
    if (inFlight !== null) store(RUNNING + inFlight, null);
    inFlight = query;
    if (query !== null) store(RUNNING + query, "1");
  }

  // teeStderr keeps the first 16 kB the Go runtime writes to stderr
  // (wasm_exec.js sends them on to console.log): a fatal error's reason is
  // its first lines, before a goroutine dump far longer than that.
  function teeStderr() {
    const fs = globalThis.fs;
    if (!fs || typeof fs.writeSync !== "function") return;
    const write = fs.writeSync.bind(fs), dec = new TextDecoder("utf-8");
    fs.writeSync = (fd, buf) => {
      if (fd === 2 && stderr.length < 16384) stderr += dec.decode(buf);
      return write(fd, buf);
    };
  }

  // crashReason is what the runtime said: its out-of-memory line, else its
  // fatal error or panic line.
  function crashReason(text) {
    const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
    return lines.find((l) => /out of memory/.test(l)) || lines.find((l) => /^(fatal error|panic):/.test(l)) || "";
  }

  // settings lists the scenario parameters a query sets: what made the run
  // large is among them.
  function settings(query) {
    const out = [];
    for (const [k, v] of new URLSearchParams(query)) if (!VIEW.includes(k) && k !== "present" && k !== "theme" && k !== "plan") out.push(k + "=" + v);
    return out.length ? out.join(", ") : "the defaults";
  }

  function fileCrash(query, reason) {
    store(CRASHED + query, JSON.stringify({ reason: reason }));
  }

  // defaultsHref keeps how the page is shown (embed, hide), drops the run.
  function defaultsHref() {
    const q = new URLSearchParams(), cur = new URLSearchParams(location.search);
    for (const p of ["embed", "hide", "theme"]) if (cur.has(p)) q.set(p, cur.get(p));
    return "play.html" + (q.toString() ? "?" + q : "");
  }

  // showCrash says which run stopped the app and why, with a link to the
  // defaults and a button to try the run again. Everything is text.
  function showCrash(c, again) {
    const oom = /out of memory/.test(c.reason);
    const title = (again ? "Last time, this run stopped the demo" : "This run stopped the demo") +
      (oom ? ": it needs more memory than the browser gives a page." : ".");
    const detail = "The scenario sets " + settings(c.query) + ". " +
      (oom ? "Make it smaller (fewer GPUs, iterations, microbatches or chunks; or fidelity=analytic) or run it with the paraplay CLI. " : "") +
      (c.reason ? "The app said: " + c.reason : "The app gave no reason.");
    const defaults = el("a", { href: defaultsHref() }, "Open the default demo");
    const retry = el("button", { type: "button" }, "Run it anyway");
    retry.addEventListener("click", () => { store(CRASHED + c.query, null); store(RUNNING + c.query, null); location.reload(); });
    showProblem(title, detail, [defaults, document.createTextNode(" "), retry]);
  }

  // crashedBefore is the crash filed for this address, if any: a filed
  // crash, or a run still marked in progress (the tab died before the page
  // could file it).
  function crashedBefore() {
    const own = ownQuery();
    try {
      const c = JSON.parse(stored(CRASHED + own) || "null");
      if (c) return { query: own, reason: String(c.reason || "") };
    } catch (e) { /* not ours */ }
    if (stored(RUNNING + own)) return { query: own, reason: "" };
    return null;
  }

  // --- start -------------------------------------------------------------------

  async function instantiate(go) {
    // play.html started the download early (window.paraplayWasm).
    const resp = await (window.paraplayWasm || fetch("paraplay.wasm"));
    if (!resp.ok) throw new Error("paraplay.wasm: HTTP " + resp.status + " " + resp.statusText);
    if (WebAssembly.instantiateStreaming) {
      try {
        return await WebAssembly.instantiateStreaming(resp.clone(), go.importObject);
      } catch (e) {
        // Usually a server that does not send application/wasm: fall back.
        console.warn("paraplay: streaming compile failed, retrying from a buffer:", e);
      }
    }
    return WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  }

  let exited = false;

  // started waits for the app's first frame (or its failure), then wires
  // the page to it when the browser is next idle: building the form and the
  // metrics panel (and the app's JSON for them) is a 100-300 ms task in a
  // software-rendered start, which would otherwise hold up the frames
  // right behind the first.
  function started() {
    const p = window.paraplay;
    if (exited) return; // the app stopped (no WebGL2, a crash): its functions are gone
    if (!p || !p.current || !(p.frames > 0 || p.state === "error")) { requestAnimationFrame(started); return; }
    // The first run is done (or refused): it did not crash the app.
    running(null);
    // The playback bar and the keys work at once; the rest waits.
    app = p;
    wire();
    requestAnimationFrame(frame);
    if (window.requestIdleCallback) requestIdleCallback(fill, { timeout: 1000 });
    else setTimeout(fill, 100);
  }

  // fill builds the form, the metrics and the lessons.
  function fill() {
    if (exited) return;
    const r = app.current();
    if (r) {
      show(r);
      if (r.query !== new URLSearchParams(location.search).toString()) setAddress(r.query);
    }
    const presets = $("presets");
    for (const p of app.presets()) {
      const b = el("button", { type: "button", title: p.lesson }, p.label);
      b.addEventListener("click", () => {
        const q = new URLSearchParams(p.query);
        for (const [k, v] of viewParams()) q.set(k, v);
        run(q.toString());
      });
      presets.append(b);
    }
    // plan.js waits for this rather than polling the app itself; the
    // attribute tells the browser tests the form is there.
    document.documentElement.dataset.app = "started";
    document.dispatchEvent(new Event("paraplay-started"));
  }

  async function start() {
    const q = new URLSearchParams(location.search);
    // An embedded page (a side of compare mode) never compares: it runs
    // its query, and the app refuses a= and b= over the canvas, so a
    // nested link starts two apps, not 2^depth.
    const embedded = ["1", "true", "yes", "on", ""].includes(q.get("embed"));
    if ((q.has("a") || q.has("b")) && !embedded) {
      compareMode(q);
      return;
    }
    const before = crashedBefore();
    if (before) {
      applyView({ embed: embedded, hide: (q.get("hide") || "").split(",") });
      showCrash(before, true);
      return;
    }
    // Apply embed/hide before the wasm loads, so the layout does not jump.
    applyView({ embed: ["1", "true", "yes", "on", ""].includes(q.get("embed")), hide: (q.get("hide") || "").split(",") });
    if (typeof Go !== "function") {
      showProblem("The demo could not start.", "wasm_exec.js did not load.");
      return;
    }
    const go = new Go();
    let exitCode = 0;
    go.exit = (code) => { exitCode = code; };
    teeStderr();
    let result;
    try {
      result = await instantiate(go);
    } catch (e) {
      showProblem("The demo could not be loaded.", String(e && e.message || e));
      return;
    }
    requestAnimationFrame(started);
    running(ownQuery());
    // WebGL2 is checked only when the app has stopped: a test context up
    // front cost 60 ms of a software-rendered start, and the app makes its
    // own context at once anyway.
    let thrown = null;
    try {
      await go.run(result.instance);
    } catch (e) {
      thrown = e;
    }
    exited = true;
    const query = inFlight;
    running(null);
    const reason = crashReason(stderr) || (thrown ? String(thrown && thrown.message || thrown) : "");
    if (exitCode === 0 && !thrown && !hasWebGL2()) {
      showProblem("This demo needs WebGL2, which this browser does not provide.",
        "Try a current Firefox, Chrome, Edge or Safari, or turn on hardware acceleration.");
      return;
    }
    // The run in progress when the app died is the one to blame; with none
    // in progress it died drawing the address's run.
    const c = { query: query !== null ? query : ownQuery(), reason: reason };
    fileCrash(c.query, c.reason);
    // The address names the run that crashed, so a reload finds it filed.
    if (c.query !== ownQuery()) setAddress(c.query);
    showCrash(c, false);
  }

  start();
})();
