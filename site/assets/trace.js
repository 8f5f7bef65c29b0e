// trace.js: the playground plays a measured run. The reader picks or
// drops PyTorch profiler (Kineto) traces, .json or .json.gz, one file per
// rank; each is read from the reader's disk as a stream (File.stream), gunzipped
// by the browser (DecompressionStream) when its first bytes say gzip, and
// handed to the app (window.paraplay.importTraces), which reads it with
// sim/kineto and shows it as it shows a simulated run. Nothing is uploaded:
// the page makes no request for the files' contents. play.js shows the
// result (the "paraplay-imported" event), a bad file's error over the canvas.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  // gzipped reports whether a file starts with gzip's magic bytes.
  async function gzipped(file) {
    const b = new Uint8Array(await file.slice(0, 2).arrayBuffer());
    return b.length === 2 && b[0] === 0x1f && b[1] === 0x8b;
  }

  async function entry(file) {
    let stream = file.stream();
    if (await gzipped(file)) {
      if (typeof DecompressionStream !== "function") {
        throw new Error(file.name + ": this browser cannot gunzip (no DecompressionStream); gunzip the file first");
      }
      stream = stream.pipeThrough(new DecompressionStream("gzip"));
    }
    return { name: file.name, stream: stream };
  }

  async function importFiles(files) {
    const app = window.paraplay;
    if (!files.length || !app || !app.importTraces) return;
    const status = $("trace-status");
    status.textContent = "Reading " + files.length + (files.length === 1 ? " file…" : " files…");
    let r;
    try {
      r = await app.importTraces(await Promise.all(Array.from(files).map(entry)));
    } catch (e) {
      status.textContent = String(e && e.message || e);
      return;
    }
    if (!r) return;
    status.textContent = r.ok ? "Showing " + r.describe + "." : r.errorTitle + ".";
    document.dispatchEvent(new CustomEvent("paraplay-imported", { detail: r }));
  }

  function wire() {
    const input = $("trace-file");
    input.addEventListener("change", () => { importFiles(input.files); });
    // Drop anywhere on the page; the canvas is the natural target.
    document.addEventListener("dragover", (e) => {
      if (e.dataTransfer && Array.from(e.dataTransfer.types).includes("Files")) {
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      }
    });
    document.addEventListener("drop", (e) => {
      if (!e.dataTransfer || !e.dataTransfer.files.length) return;
      e.preventDefault();
      importFiles(e.dataTransfer.files);
    });
    $("trace-section").hidden = false;
  }

  if (document.documentElement.dataset.app === "started") wire();
  else document.addEventListener("paraplay-started", wire, { once: true });
})();
