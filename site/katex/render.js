// render.js typesets every formula of the site with KaTeX in one run:
// build-time math, so pages carry only KaTeX's CSS and fonts. Go's site.KaTeX
// runs it as `node -e <this file> <katex package dir>` with a JSON array of
// {tex, display} on stdin, and reads an array of {html} or {error} back.
"use strict";
const katex = require(process.argv[1]);
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ tex, display }) => {
    try {
      return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "htmlAndMathml", strict: "error" }) };
    } catch (e) {
      return { error: String(e && e.message || e) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
