//go:build js && wasm

// Package webgl adjusts how the page creates the WebGL2 context Ebitengine
// draws into. Ebitengine renders every frame into an offscreen image and
// copies it to the canvas with one pixel-aligned quad, so the canvas's own
// multisampling (WebGL's default, antialias: true) smooths nothing and, in
// software WebGL (SwiftShader, as in headless Chromium and on machines
// without a GPU), costs about a third of a simple frame: measured here on a
// 1280×800 canvas, the minimal Ebitengine page drew 20 frames/s with it and
// 30 without (GPU-process CPU per frame 87 ms → 57 ms).
package webgl
