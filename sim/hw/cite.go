//go:build !js

package hw

// cite is a catalog entry's citation or basis text, kept in full outside
// the browser: the command line, the tests and the site print and check
// it. In the wasm (cite_js.go) it is a dash, so that the download does not
// carry the catalog's prose, which nothing there shows.
func cite(text string) string { return text }
