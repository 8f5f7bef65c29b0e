// Package playground is the browser app's logic that needs no browser: the
// playback clock, the viewer's URL parameters, the form built from the
// scenario's field table, the metrics panel's numbers and the preset
// lessons. It builds and is tested on the host; package main (GOOS=js)
// only wires it to Ebitengine and to window.paraplay.
package playground
