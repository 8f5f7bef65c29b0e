package site

// ContentSecurityPolicy is the policy every page of the site declares in a
// <meta http-equiv> and the preview server also sends as a header. The site
// loads nothing from elsewhere (Check enforces it), runs no inline script
// and no eval, and writes no style attributes (KaTeX's are turned into
// classes at build time, see inlineStyles), so everything can be 'self':
//   - script-src adds only 'wasm-unsafe-eval', which compiling the app's
//     WebAssembly needs and which allows no JavaScript eval;
//   - object-src 'none' and base-uri 'self' close the two holes a
//     default-src does not (plugins, a <base> that redirects relative
//     scripts); form-action 'self' keeps the playground form on the site.
//
// frame-ancestors is not set: a <meta> cannot carry it, and demos are meant
// to be embedded in other people's pages.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'"
