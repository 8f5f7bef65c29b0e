// preload.js runs first in play.html's <head> (a file, not an inline
// script: the page's Content-Security-Policy allows no inline code).
// It starts downloading the 15 MB app now, before the stylesheet and the
// deferred scripts: play.js awaits this promise. Compare mode loads the app
// in two iframes instead, so it skips this. The catch only keeps a failed
// download from being reported twice; play.js still sees the rejection.
{
  const q = new URLSearchParams(location.search);
  if (!q.has("a") && !q.has("b")) {
    window.paraplayWasm = fetch("paraplay.wasm");
    window.paraplayWasm.catch(() => {});
  }
}
