// Package scene turns a finished run and an instant t into a draw list: a
// flat, backend-neutral list of rectangles, lines and text, each with a
// stable ID and its own colour. The browser app, the SVG encoder and the
// raster encoders all replay the same list, so every picture of a run is the
// same picture.
//
// Scene is the only package under sim (besides cmd) that knows pictures
// exist. It never changes the timeline.
//
// Build lays a frame out in three bands: a header (title, "t = now / end"),
// the GPUs on a ring with their links and the chunks in flight, and a
// timeline strip of the whole run with a playhead. StateAt answers what a
// GPU is doing at an instant, the same answer the picture shows. WriteSVG
// encodes a draw list as a deterministic SVG document.
//
// Item IDs name the thing drawn, not its position in the list, so they are
// the same at every instant (those marked * exist only while active):
//
//	header/title, header/time          the header
//	gpu/<i>, gpu/<i>/label, gpu/<i>/state
//	                                   GPU i's box, name and activity
//	link/<id>, link/<id>/head/{a,b}    a directed link and its arrowhead
//	xfer/<k>, xfer/<k>/label *         transfer k of Timeline.Transfers in flight
//	caption, caption/detail *          the collective step in flight
//	legend/<key>/{swatch,label}        the legend
//	strip/row/<i>, strip/label/<i>     GPU i's row in the strip
//	strip/span/<k>, strip/send/<k>     compute spans and sends of GPU rows,
//	                                   merged into runs named by their first index
//	axis, axis/tick/<k>, axis/label/<k>, playhead
//	message                            shown instead of an empty run
package scene
