//go:build js && wasm

// Package webgl adjusts the WebGL2 context Ebitengine draws into. Ebitengine
// renders every frame into an offscreen image and copies it to the canvas
// with one pixel-aligned quad, and in software WebGL (SwiftShader, as in
// headless Chromium and on machines without a GPU) every full-canvas pass
// costs about 10 ms of CPU at 1280×800. Two passes do nothing visible:
//
//   - The canvas's own multisampling (WebGL's default, antialias: true)
//     smooths nothing when the only thing drawn is a pixel-aligned copy.
//     Measured here on a 1280×800 canvas, the minimal Ebitengine page drew
//     20 frames/s with it and 30 without (GPU-process CPU per frame 87 ms →
//     57 ms).
//   - Ebitengine clears the canvas (a full-canvas quad drawn with the copy
//     blend) before the copy. The browser has already cleared it: with
//     preserveDrawingBuffer false, which this package makes sure of, the
//     drawing buffer is cleared to transparent black after every frame it
//     presents (WebGL 1.0 §2.2), and the copy is opaque wherever it lands.
//     Dropping that draw took the GPU process from 44 to 33 ms of CPU a
//     frame, and the 8×8 H100 cluster embed from 33 to 42 frames/s.
package webgl
