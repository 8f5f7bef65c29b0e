// trace.js: the playground plays a measured run. The reader picks or
// drops PyTorch profiler (Kineto) traces, .json or .json.gz, one file per
// rank; each is read from the reader's disk as a stream (File.stream), gunzipped
// by the browser (DecompressionStream) when its first bytes say gzip, and
// handed to the app (window.paraplay.importTraces), which reads it with
// sim/kineto and shows it as it shows a simulated run. Nothing is uploaded:
// the page makes no request for the files' contents. play.js shows the
// result (the "paraplay-imported" event), a bad file's error over the canvas.
//
// play.html?trace=URL (repeat it, one per rank) fetches the traces from
// this site itself: a URL on another origin is refused before any request
// (the built site asks nothing of anyone else; fetch's same-origin mode
// holds redirects to it too), a body over MAX_BYTES or a fetch over
// TIMEOUT_MS stops, and each refusal is drawn over the canvas as a bad
// file's error is.
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

  async function importFiles(files, fromURL) {
    const app = window.paraplay;
    if (!files.length || !app || !app.importTraces) return;
    const status = $("trace-status");
    status.textContent = "Reading " + files.length + (files.length === 1 ? " file…" : " files…");
    let r;
    try {
      r = await app.importTraces(await Promise.all(Array.from(files).map(fromURL ? (f) => f : entry)));
    } catch (e) {
      status.textContent = String(e && e.message || e);
      return;
    }
    if (!r) return;
    status.textContent = r.ok ? "Showing " + r.describe + "." : r.errorTitle + ".";
    r.traceURLs = fromURL || [];
    document.dispatchEvent(new CustomEvent("paraplay-imported", { detail: r }));
  }

  // The bounds of ?trace=: the app reads at most 1 GiB of JSON a file.
  const MAX_BYTES = 1 << 30, TIMEOUT_MS = 120000;

  // failing is an entry whose stream fails with message: the app draws it
  // over the canvas.
  function failing(name, message) {
    return { name: name, stream: new ReadableStream({ start(c) { c.error(new Error(message)); } }) };
  }

  // fetched is the entry of one ?trace= URL: fetched from this origin
  // only, its body counted against MAX_BYTES, gunzipped when it starts with
  // gzip's magic bytes.
  async function fetched(raw, signal) {
    let url;
    try { url = new URL(raw, location.href); } catch (e) { return failing(raw, "trace=" + raw + " is not a URL"); }
    const name = decodeURIComponent(url.pathname.split("/").pop() || url.pathname);
    if (url.origin !== location.origin) {
      return failing(name, "trace=" + raw + " is on another site (" + url.origin + "); this page fetches traces from " +
        location.origin + " only. Download the file and drop it on the page instead");
    }
    let resp;
    try {
      resp = await fetch(url, { mode: "same-origin", credentials: "same-origin", signal: signal });
    } catch (e) {
      return failing(name, "trace=" + raw + ": " + (signal.aborted ? "no answer within " + TIMEOUT_MS / 1000 + " s" : String(e && e.message || e)));
    }
    const size = Number(resp.headers.get("Content-Length") || 0);
    if (!resp.ok || !resp.body) return failing(name, "trace=" + raw + ": HTTP " + resp.status + " " + resp.statusText);
    if (size > MAX_BYTES) return failing(name, "trace=" + raw + ": " + size + " bytes; the page reads at most " + MAX_BYTES + " (use paraplay import on the command line)");
    let n = 0;
    const reader = resp.body.pipeThrough(new TransformStream({
      transform(chunk, c) {
        if ((n += chunk.byteLength) > MAX_BYTES) c.error(new Error("trace=" + raw + ": over " + MAX_BYTES + " bytes; the page reads at most that"));
        else c.enqueue(chunk);
      },
    })).getReader();
    const first = await reader.read().catch((e) => ({ error: e }));
    if (first.error) return failing(name, "trace=" + raw + ": " + String(first.error.message || first.error));
    const head = first.done ? new Uint8Array(0) : first.value;
    let stream = new ReadableStream({
      start(c) { if (head.byteLength) c.enqueue(head); if (first.done) c.close(); },
      async pull(c) { const r = await reader.read(); if (r.done) c.close(); else c.enqueue(r.value); },
      cancel(why) { return reader.cancel(why); },
    });
    if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
      if (typeof DecompressionStream !== "function") return failing(name, name + ": this browser cannot gunzip (no DecompressionStream)");
      stream = stream.pipeThrough(new DecompressionStream("gzip"));
    }
    return { name: name, stream: stream };
  }

  // fromAddress imports the traces ?trace= names, if any.
  async function fromAddress() {
    const urls = new URLSearchParams(location.search).getAll("trace");
    if (!urls.length) return;
    const ctl = new AbortController(), timer = setTimeout(() => ctl.abort(), TIMEOUT_MS);
    $("trace-status").textContent = "Fetching " + urls.length + (urls.length === 1 ? " trace…" : " traces…");
    try {
      await importFiles(await Promise.all(urls.map((u) => fetched(u, ctl.signal))), urls);
    } finally {
      clearTimeout(timer);
    }
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
    fromAddress();
  }

  if (document.documentElement.dataset.app === "started") wire();
  else document.addEventListener("paraplay-started", wire, { once: true });
})();
