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
// the network with the chunks in flight, and a timeline strip of the whole
// run with a playhead. A timeline without switches shows its GPUs on a ring
// joined by their direct links. One with switches shows the topology view:
// a caption naming the collective step, each node as a box holding its GPUs
// and its switch (NVSwitch, PCIe), the network's switches in rows below
// (leaves or rails, then the spine), every link coloured by its load at t
// (the rates of the transfers crossing it over its bandwidth, on a
// colour-blind-safe ramp), and every transfer in flight as a square along
// its whole multi-hop path. StateAt answers what a
// GPU is doing at an instant, the same answer the picture shows. WriteSVG
// encodes a draw list as a deterministic SVG document.
//
// Item IDs name the thing drawn, not its position in the list, so they are
// the same at every instant (those marked * exist only while active):
//
//	header/title, header/time          the header
//	gpu/<i>, gpu/<i>/label, gpu/<i>/state
//	                                   GPU i's box, name and activity
//	link/<id>, link/<id>/head/{a,b}    a directed link and its arrowhead (ring only)
//	node/<n>, node/<n>/label           node n's group box (topology view)
//	switch/<v>, switch/<v>/label       the switch that is vertex v
//	legend/load/label, legend/load/<k>, legend/load/full
//	                                   the link-load ramp (topology view)
//	xfer/<k>, xfer/<k>/label *         transfer k of Timeline.Transfers in flight
//	caption, caption/detail *          the collective step in flight
//	legend/<key>/{swatch,label}        the legend
//	strip/row/<i>, strip/label/<i>     GPU i's row in the strip
//	strip/span/<k>, strip/send/<k>     compute spans and sends of GPU rows,
//	                                   merged into runs named by their first index
//	strip/collective/<k>/<i>           GPU i's part of the k-th collective
//	                                   recorded as one span (analytic)
//	axis, axis/tick/<k>, axis/label/<k>, playhead
//	message                            shown instead of an empty run
package scene
