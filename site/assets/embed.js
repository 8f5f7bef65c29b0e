// embed.js fills embed.html for the demo named by ?demo=<play.html query>:
// a live preview and the snippets for web pages, reveal.js, Google Slides
// and PowerPoint. Every address is made absolute from this page's own, so
// the snippets work wherever the site is hosted.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const demo = new URLSearchParams(location.search).get("demo") || "";
  const base = new URL("play.html", location.href);

  // play builds the demo's address with the chosen viewer parameters.
  function play(extra) {
    const q = new URLSearchParams(demo.replace(/^.*\?/, ""));
    for (const k of ["embed", "present", "autoplay"]) q.delete(k);
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    const u = new URL(base);
    u.search = q.toString();
    return u.href;
  }

  function escapeAttr(s) {
    return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function update() {
    const view = { embed: "1" };
    if ($("present").checked) view.present = "1";
    view.autoplay = $("autoplay").checked ? "1" : "0";
    const src = play(view);
    if ($("preview").src !== src) $("preview").src = src;
    $("code").value = '<iframe src="' + escapeAttr(src) + '" width="960" height="600" ' +
      'style="border:0;max-width:100%" title="ParaPlay demo" loading="lazy" allow="fullscreen"></iframe>';
    const link = play($("present").checked ? { present: "1" } : {});
    $("link").href = link;
    $("link").textContent = link;
    $("full").href = play({});
    const q = new URLSearchParams(demo.replace(/^.*\?/, ""));
    for (const k of ["embed", "present", "autoplay", "t", "hide"]) q.delete(k);
    $("cli").textContent = "paraplay export --url 'play.html?" + q.toString() + "' --format gif " +
      "--width 800 --height 450 --fps 15" + ($("present").checked ? " --present" : "") + " --out demo.gif";
  }

  $("what").textContent = demo ? "Demo: play.html?" + demo.replace(/^.*\?/, "") : "No demo given: showing the default one.";
  $("present").addEventListener("change", update);
  $("autoplay").addEventListener("change", update);
  $("copy").addEventListener("click", () => {
    const done = () => { $("status").textContent = "Copied."; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText($("code").value).then(done, () => { $("code").select(); });
    } else {
      $("code").select();
    }
  });
  update();
})();
