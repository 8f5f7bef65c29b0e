// Package textfont carries the font that every ParaPlay canvas draws its
// text with: a subset of Go Regular (Bigelow & Holmes, BSD licence; see
// LICENSE), made by subset.sh.
//
// The subset keeps every glyph of Basic Latin, Latin-1, Latin Extended-A,
// Greek, general punctuation, super- and subscripts, arrows, mathematical
// operators and geometric shapes, with their outlines and advances
// unchanged, and drops the TrueType hinting that golang.org/x/image never
// runs. A character outside the subset draws as '?' (scene's fallback). The
// full font would add about 45 KB gzip to the browser build, whose budget is
// 4 MB.
package textfont
