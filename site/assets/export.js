// export.js adds the playground's Export section: Download PNG (the frame
// on screen), Download GIF (the whole run, encoded by the same Go code as
// `paraplay export`, a slice of frames per animation frame so the page
// never freezes), Record WebM (MediaRecorder on the canvas) and Download
// SVG. It talks to the wasm only through window.paraplay.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);

  function el(tag, props, text) {
    const e = document.createElement(tag);
    Object.assign(e, props || {});
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // fileStem names downloads after the run: "paraplay-ring-all-reduce-8-gpus".
  function fileStem() {
    const app = window.paraplay;
    let title = "";
    try { const r = app && app.current(); title = (r && r.title) || ""; } catch (e) { title = ""; }
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60);
    return "paraplay" + (slug ? "-" + slug : "");
  }

  function save(blob, name) {
    const a = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  function build() {
    const share = $("share");
    if (!share || $("export")) return;
    const sec = el("section", { id: "export" });
    sec.setAttribute("aria-labelledby", "export-h");
    sec.append(el("h2", { id: "export-h" }, "Export"));
    const png = el("button", { type: "button", id: "export-png", title: "The frame on screen, as the canvas shows it" }, "Download PNG");
    const gif = el("button", { type: "button", id: "export-gif", title: "The whole run at the current speed, 15 frames per second" }, "Download GIF");
    const webm = el("button", { type: "button", id: "export-webm", title: "Record the canvas as a video while the run plays once" }, "Record WebM");
    const svg = el("button", { type: "button", id: "export-svg", title: "The frame on screen as a vector drawing" }, "Download SVG");
    const size = el("select", { id: "export-size", title: "GIF size" });
    for (const [w, h] of [[640, 360], [800, 450], [960, 600], [1280, 720]]) {
      size.append(el("option", { value: w + "x" + h, selected: w === 800 }, w + "×" + h));
    }
    const label = el("label", { htmlFor: "export-size", className: "visually-hidden" }, "GIF size");
    const prog = el("progress", { id: "export-progress", max: 1, value: 0, hidden: true });
    const status = el("p", { id: "export-status", className: "muted" });
    status.setAttribute("role", "status");
    sec.append(png, svg, label, size, gif, webm, prog, status);
    sec.append(el("p", { className: "muted" },
      "For slides: reveal.js takes the embed code as is; Google Slides can link to this page; PowerPoint and Keynote take the GIF or the WebM."));
    share.after(sec);
    const say = (m) => { status.textContent = m; };

    png.addEventListener("click", () => {
      // The app hands over the frame's RGBA pixels (the command line's
      // rasterizer); the browser's own encoder makes the PNG.
      const frame = window.paraplay && window.paraplay.exportPNG();
      if (!frame) { say("No frame to save."); return; }
      const c = document.createElement("canvas");
      c.width = frame.width;
      c.height = frame.height;
      const pix = new Uint8ClampedArray(frame.pixels.buffer, frame.pixels.byteOffset, frame.pixels.byteLength);
      c.getContext("2d").putImageData(new ImageData(pix, frame.width, frame.height), 0, 0);
      c.toBlob((blob) => {
        if (!blob) { say("The browser could not encode the PNG."); return; }
        save(blob, fileStem() + ".png");
        say("PNG saved.");
      }, "image/png");
    });
    svg.addEventListener("click", () => {
      const text = window.paraplay && window.paraplay.exportSVG();
      if (!text) { say("No frame to save."); return; }
      save(new Blob([text], { type: "image/svg+xml" }), fileStem() + ".svg");
      say("SVG saved.");
    });
    gif.addEventListener("click", () => downloadGIF(gif, size, prog, say));
    webm.addEventListener("click", () => recordWebM(webm, say));
  }

  let gifRunning = false;

  function downloadGIF(button, size, prog, say) {
    const app = window.paraplay;
    if (!app || gifRunning) return;
    const [w, h] = size.value.split("x").map(Number);
    const err = app.exportGIF({ width: w, height: h, fps: 15 });
    if (err) { say("GIF: " + err); return; }
    gifRunning = true;
    button.disabled = true;
    prog.hidden = false;
    prog.value = 0;
    const stem = fileStem();
    const slice = () => {
      // About 25 ms of encoding per animation frame: the canvas keeps
      // playing and the page answers clicks while the GIF is made.
      const r = app.exportGIFStep(25);
      prog.value = r.total ? r.done / r.total : 0;
      say("GIF: " + r.done + " of " + r.total + " frames");
      if (r.error || r.finished) {
        gifRunning = false;
        button.disabled = false;
        prog.hidden = true;
        if (r.error) { say("GIF failed: " + r.error); return; }
        const bytes = app.exportGIFResult();
        save(new Blob([bytes], { type: "image/gif" }), stem + ".gif");
        say("GIF saved: " + r.total + " frames, " + Math.round(bytes.length / 1024) + " KiB.");
        return;
      }
      requestAnimationFrame(slice);
    };
    requestAnimationFrame(slice);
  }

  let recorder = null;

  function recordWebM(button, say) {
    const app = window.paraplay;
    if (recorder) { recorder.stop(); return; }
    const canvas = document.querySelector("canvas");
    if (!app || !canvas || !canvas.captureStream || typeof MediaRecorder !== "function") {
      say("This browser cannot record the canvas (no MediaRecorder).");
      return;
    }
    const type = ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"].find((t) => MediaRecorder.isTypeSupported(t));
    if (!type) { say("This browser cannot record WebM."); return; }
    const chunks = [];
    recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: type });
    recorder.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
    recorder.onstop = () => {
      recorder = null;
      button.textContent = "Record WebM";
      save(new Blob(chunks, { type: "video/webm" }), fileStem() + ".webm");
      say("WebM saved.");
    };
    app.setLoop(false);
    app.restart();
    recorder.start(500);
    button.textContent = "Stop recording";
    say("Recording one pass of the run…");
    const watch = () => {
      if (!recorder) return;
      if (app.simTime >= app.end && app.end > 0) { recorder.stop(); app.setLoop(true); return; }
      setTimeout(watch, 100);
    };
    setTimeout(watch, 300);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", build);
  else build();
})();
