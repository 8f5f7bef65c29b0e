// webgl-tune.js defines paraplaySkipScreenClear(gl), which wasm/webgl's
// Tune applies to the WebGL2 context Ebitengine draws into (see that
// package's doc for why and what it saves). It lives in a file, not in a
// string the app compiles with new Function, because the site's
// Content-Security-Policy allows no eval.
//
// It wraps three of gl's methods to drop any draw onto the canvas itself
// (the default framebuffer, bound as null or undefined) made with the copy
// blend (ONE, ZERO for colour and alpha). Ebitengine draws onto the canvas
// only twice a frame: the clear, with the copy blend, and the copy of its
// offscreen image, with source-over, which stays. It is plain JavaScript,
// not Go callbacks, because it runs on every draw call.
"use strict";
window.paraplaySkipScreenClear = function (gl) {
  if (!gl || gl.__paraplaySkipsClear) return;
  gl.__paraplaySkipsClear = true;
  const bind = gl.bindFramebuffer, blend = gl.blendFuncSeparate, draw = gl.drawElements;
  let canvas = true, copy = false;
  gl.bindFramebuffer = function (target, fb) {
    if (target === gl.FRAMEBUFFER || target === gl.DRAW_FRAMEBUFFER) canvas = fb == null; // Ebitengine passes undefined
    return bind.call(this, target, fb);
  };
  gl.blendFuncSeparate = function (sr, dr, sa, da) {
    copy = sr === gl.ONE && dr === gl.ZERO && sa === gl.ONE && da === gl.ZERO;
    return blend.call(this, sr, dr, sa, da);
  };
  gl.drawElements = function (mode, count, type, offset) {
    if (canvas && copy) { gl.paraplaySkippedClears = (gl.paraplaySkippedClears || 0) + 1; return; }
    return draw.call(this, mode, count, type, offset);
  };
};
