// Package scene turns a finished run and an instant t into a draw list: a
// flat, backend-neutral list of rectangles, lines and text, each with a
// stable ID and its own colour. The browser app, the SVG encoder and the
// raster encoders all replay the same list, so every picture of a run is the
// same picture.
//
// Scene is the only package under sim (besides cmd) that knows pictures
// exist. It never changes the timeline.
package scene
