// play.js starts the ParaPlay wasm app in play.html. It checks for WebGL2,
// loads paraplay.wasm (streaming where the server sends application/wasm),
// shows "Loading…" until the app has drawn its first frame, and reports load
// failures in the page. The app reads the scenario from location.search
// itself; this file never puts URL text into the page.
"use strict";

(function () {
  const status = document.getElementById("status");
  const loading = document.getElementById("loading");
  const problem = document.getElementById("problem");

  // showProblem replaces the loading message with an error box. textContent
  // only: messages may echo parts of the URL.
  function showProblem(title, detail) {
    loading.hidden = true;
    problem.hidden = false;
    problem.querySelector("strong").textContent = title;
    problem.querySelector("span").textContent = detail || "";
    status.hidden = false;
  }

  function hasWebGL2() {
    try {
      return !!document.createElement("canvas").getContext("webgl2");
    } catch (e) {
      return false;
    }
  }

  // waitForFirstFrame hides the loading message once the app has drawn
  // (window.paraplay.frames > 0); the app draws its own errors.
  function waitForFirstFrame() {
    const p = window.paraplay;
    if (p && p.frames > 0) {
      status.hidden = true;
      return;
    }
    requestAnimationFrame(waitForFirstFrame);
  }

  async function instantiate(go) {
    const resp = await fetch("paraplay.wasm");
    if (!resp.ok) {
      throw new Error("paraplay.wasm: HTTP " + resp.status + " " + resp.statusText);
    }
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

  async function start() {
    if (!hasWebGL2()) {
      showProblem("This demo needs WebGL2, which this browser does not provide.",
        "Try a current Firefox, Chrome, Edge or Safari, or turn on hardware acceleration.");
      return;
    }
    if (typeof Go !== "function") {
      showProblem("The demo could not start.", "wasm_exec.js did not load.");
      return;
    }
    const go = new Go();
    let result;
    try {
      result = await instantiate(go);
    } catch (e) {
      showProblem("The demo could not be loaded.", String(e && e.message || e));
      return;
    }
    waitForFirstFrame();
    try {
      await go.run(result.instance);
      showProblem("The demo stopped.", "Reload the page to start it again.");
    } catch (e) {
      showProblem("The demo crashed.", String(e && e.message || e));
    }
  }

  start();
})();
