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
// joined by their direct links, or, when the links form a 2D or 3D torus
// (a TPU slice), as the grid of each z plane, the planes side by side,
// busy links in their axis's colour, and a pod's chips in blocks
// (ring_grid.go, ring_torus.go). One with switches shows the topology view:
// a caption naming the collective step, each node as a box holding its GPUs
// and its switch (NVSwitch, PCIe), the network's switches in rows below
// (leaves or rails, then the spine), every link coloured by its load at t
// (the rates of the transfers crossing it over its bandwidth, on a
// colour-blind-safe ramp), and every transfer in flight as a square along
// its whole multi-hop path. A collective on several channels (NCCL's
// parallel rings or trees, Transfer.Channel) fills its squares by channel,
// numbered, with a swatch per channel in the legend, and a message that
// bundles several channels' slices (a ring's hop inside a node) white;
// one channel fills them by chunk. The all-reduces in which a switch adds
// (NVLS, CollNet), recorded as one analytic collective, are drawn from
// their closed form (innetwork.go): the adding switches lit amber and
// labelled "… adds", the links to them loaded with the form's bytes, and
// markers streaming up (data to add) and back (the sum). StateAt answers what a
// GPU is doing at an instant, the same answer the picture shows, and SpanAt
// which op ("F3"). WriteSVG encodes a draw list as a deterministic SVG
// document.
//
// A training run (Timeline.Training or Memory set) gives a column right of
// the network view to its metrics (iteration time, tokens/s, MFU, bubble,
// peak memory) and to one memory bar per GPU at t: the memory reserve,
// parameters, gradients, optimizer states, buffers and activations stacked
// to scale with the GPU's HBM under a line at the limit, outlined amber
// above 90% of it and red with "OOM" past it. Its strip colours
// spans by kind (forward, backward B, weight gradient W, optimizer, and the
// tp/cp/ep communication that blocks compute in dark tones), tints odd
// microbatches lighter and labels spans 14 px wide or more ("F3"); its
// packets and send lane are coloured by traffic: pipeline messages,
// data-parallel gradients, ZeRO gathers. Beyond 32 GPUs the strip and the
// bars show one row per pipeline stage (tp rank 0 of replica 0) and say so.
// NewFrames prepares a run once for an animation's many Builds.
//
// What a frame draws for a strategy's own record goes through one seam, the
// unexported look (look.go), a table of hooks: its legend, its caption
// line, its metrics box, its memory bars, its strip rows and what it draws
// under the spans, its traffic kinds, and an overlay that dresses the
// network view once it is laid out. lookOf picks the look once per run from
// the record the timeline carries: a collective's (the default), a training
// run's (Timeline.Training or Memory), and built on those a serving run's
// (Inference), a split or federated run's (Split), a parameter-server or
// local-SGD run's (Async) and a reinforcement-learning run's (RLHF), one
// file each. Adding a kind of record is a case in lookOf and a file with
// its look; the rest of the package draws spans, transfers and memory
// series without asking which strategy made them.
//
// A strategy outside the built-ins dresses its frames without editing
// this package: its record implements Overlay, which Build calls once
// the frame is laid out with a Canvas to find, edit and add items on,
// sized and coloured as the scene's own (Canvas.TextSize, Scale,
// TextColor). The overlays run in the order of their records' keys.
//
// Options pick a View (the whole frame, or only the cluster, the timeline
// strip or a training run's memory panel, laid out to fill the canvas), a
// Theme (light, or dark for projectors and dark pages) and presenter mode
// (Present: larger text, thicker lines), and a compact layout for a phone's
// column (Compact: sizes from a 340-px design, no text under MinText, no
// side panel, the legend wrapped). Raster paints a draw list in pure
// Go (x/image/vector, the embedded Go fonts) for PNG frames (the CLI encodes
// them; the browser has its canvas do it, and the wasm carries no image/png), and
// GIFEncoder turns an Animation — size, frames per second, a simulated-time
// range and a speed on the browser's pace (PlaybackRate) — into an animated
// GIF on a fixed Palette of the scene's colours, frame by frame so that the
// browser can spread the work.
//
// Item IDs name the thing drawn, not its position in the list, so they are
// the same at every instant (those marked * exist only while active):
//
//	header/title, header/time          the header
//	gpu/<i>, gpu/<i>/label, gpu/<i>/state
//	                                   GPU i's box, name and activity
//	link/<id>, link/<id>/head/{a,b}    a directed link and its arrowhead (ring only)
//	torus/mark/<k>                     a torus's mark: the z links between two planes,
//	                                   or a plane's x or y links when its chips are
//	                                   drawn in blocks (ring_torus.go)
//	torus/axis/<k>                     the key naming which way axis k runs (3D)
//	node/<n>, node/<n>/label           node n's group box (topology view)
//	node/<n>/gpus, node/<n>/gpus/<state>  node n's GPUs as one bar split by state, when
//	                                   their boxes would be under 3 px (~1,000 GPUs)
//	switch/<v>, switch/<v>/label       the switch that is vertex v
//	legend/load/label, legend/load/<k>, legend/load/full
//	                                   the link-load ramp (topology view)
//	xfer/<k>, xfer/<k>/label *         transfer k of Timeline.Transfers in flight
//	innet/up/<l>, innet/down/<l> *     an in-network reduction's marker on link l,
//	                                   to the adding switch or back from it
//	caption, caption/detail *          the collective step in flight
//	legend/<key>/{swatch,label}        the legend (a channel's key: channel/<k>)
//	metrics/<key>, metrics/<key>/label the metrics of a training run
//	mem/title, mem/oom, mem/limit      the memory panel, its alert (OOM or >90% HBM) and its HBM line
//	mem/<i>, mem/<i>/<category>, mem/<i>/label, mem/<i>/over *, mem/<i>/oom *
//	                                   GPU i's memory bar (category: reserve,
//	                                   parameters, gradients, optimizer, buffers,
//	                                   activations)
//	mem/legend/<category>/{swatch,label}
//	strip/note                         which GPUs a large run's strip shows
//	strip/row/<i>, strip/label/<i>     GPU i's row in the strip
//	strip/span/<k>, strip/send/<k>     compute spans and sends of GPU rows,
//	                                   merged into runs named by their first index
//	strip/span/<k>/label               the op of a wide span ("F3")
//	strip/collective/<k>/<i>           GPU i's part of the k-th collective
//	                                   recorded as one span (analytic)
//	axis, axis/tick/<k>, axis/label/<k>, playhead
//	gpu/<i>/lag, gpu/<i>/lag/label     worker i's version-lag badge (parameter
//	                                   server, local SGD: Timeline.Async)
//	async/caption                      what the synchronisation allows (ring view)
//	message                            shown instead of an empty run
//	<strategy>/…                       what an Overlay adds, by its own IDs
package scene
