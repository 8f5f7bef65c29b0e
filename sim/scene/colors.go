package scene

import "paraplay/sim/timeline"

// The palette. These are read-only: Build copies them into items.
var (
	colBackground = Color{0xff, 0xff, 0xff, 0xff}
	colText       = Color{0x22, 0x22, 0x22, 0xff}
	colMuted      = Color{0x66, 0x66, 0x66, 0xff}
	colDarkText   = Color{0x1a, 0x1a, 0x1a, 0xff}
	colWhite      = Color{0xff, 0xff, 0xff, 0xff}
	colLink       = Color{0xb4, 0xb4, 0xb4, 0xff}
	colRowShade   = Color{0xf3, 0xf3, 0xf3, 0xff}
	colAxis       = Color{0x88, 0x88, 0x88, 0xff}
	colPlayhead   = Color{0xd6, 0x27, 0x28, 0xff}
	colBoxEdge    = Color{0x55, 0x55, 0x55, 0xff}

	// Border of a chunk square by the phase of its collective.
	colReduceScatter = Color{0x2e, 0x7d, 0x32, 0xff}
	colAllGather     = Color{0x7b, 0x3f, 0xa0, 0xff}
	colOtherPhase    = Color{0x44, 0x44, 0x44, 0xff}
)

// stateStyle is the fill of a GPU in a state and the text colour that reads
// best on it (the higher WCAG contrast of white and near-black).
var stateStyle = [...]struct{ fill, text Color }{
	Idle:          {Color{0xd0, 0xd0, 0xd0, 0xff}, colDarkText},
	Forward:       {Color{0x4e, 0x79, 0xa7, 0xff}, colWhite},
	Backward:      {Color{0xf2, 0x8e, 0x2b, 0xff}, colDarkText},
	Communicating: {Color{0x59, 0xa1, 0x4f, 0xff}, colDarkText},
	Done:          {Color{0x9a, 0x9a, 0x9a, 0xff}, colDarkText},
	// BackwardWeight and Optimizer share their spans' colours (kindColor).
	BackwardWeight: {Color{0xed, 0xc9, 0x48, 0xff}, colDarkText},
	Optimizer:      {Color{0xb0, 0x7a, 0xa1, 0xff}, colDarkText},
	Compressing:    {Color{0x8c, 0x8c, 0x5a, 0xff}, colDarkText},
}

func (s State) fill() Color {
	if int(s) < len(stateStyle) {
		return stateStyle[s].fill
	}
	return stateStyle[Idle].fill
}

func (s State) textColor() Color {
	if int(s) < len(stateStyle) {
		return stateStyle[s].text
	}
	return colDarkText
}

// chunkPalette colours chunk c by c mod len: light enough for dark text, and
// none of them the green of an active link.
var chunkPalette = [...]Color{
	{0xe1, 0x57, 0x59, 0xff}, // red
	{0xed, 0xc9, 0x48, 0xff}, // yellow
	{0x76, 0xb7, 0xb2, 0xff}, // teal
	{0xff, 0x9d, 0xa7, 0xff}, // pink
	{0xa0, 0xcb, 0xe8, 0xff}, // sky
	{0xd4, 0xa3, 0x73, 0xff}, // tan
	{0xc9, 0xb3, 0xe6, 0xff}, // lavender
	{0xbc, 0xe0, 0x8a, 0xff}, // lime
}

func chunkColor(c int) Color {
	if c < 0 {
		c = -c
	}
	return chunkPalette[c%len(chunkPalette)]
}

func phaseColor(phase string) Color {
	switch phase {
	case "reduce-scatter":
		return colReduceScatter
	case "all-gather":
		return colAllGather
	}
	return colOtherPhase
}

// The dark tones of the spans that block the compute stream (and a
// prefill's darker blue). The dark theme lightens them (theme.go).
var (
	colTPComm  = Color{0x3a, 0x3a, 0x3a, 0xff}
	colCPComm  = Color{0x1d, 0x5c, 0x57, 0xff}
	colEPComm  = Color{0x6b, 0x3a, 0x1e, 0xff}
	colPrefill = Color{0x2c, 0x4f, 0x7c, 0xff}
)

// kindColor is the fill of a strip span by what it does: the four compute
// kinds in hues that stay apart under the common colour-vision deficiencies
// and in greyscale (blue, orange, yellow, mauve), and the communication that
// blocks the compute stream in dark tones, so it reads as "not computing".
func kindColor(k timeline.Kind) (Color, bool) {
	switch k {
	case timeline.Forward:
		return stateStyle[Forward].fill, true
	case timeline.Backward:
		return stateStyle[Backward].fill, true
	case timeline.BackwardWeight:
		return stateStyle[BackwardWeight].fill, true
	case timeline.Optimizer:
		return stateStyle[Optimizer].fill, true
	case timeline.TPComm:
		return colTPComm, true
	case timeline.CPComm:
		return colCPComm, true
	case timeline.EPComm:
		return colEPComm, true
	case timeline.Compress:
		return stateStyle[Compressing].fill, true // olive: compute, but not the model's
	case timeline.Prefill:
		return colPrefill, true // a darker blue than a decode step
	case timeline.Decode:
		return stateStyle[Forward].fill, true
	case timeline.Sample:
		return stateStyle[Optimizer].fill, true // mauve: no optimizer runs in a serving run
	case timeline.Host:
		return colHostWork, true
	}
	if j := measuredClass(k); j >= 0 {
		return measuredKinds[j].fill, true
	}
	if c, ok := rlhfColor(k); ok {
		return c, true
	}
	return stateStyle[Forward].fill, false
}

// spanColor is the fill of a span of kind k for microbatch mb: odd
// microbatches a lighter tint of the kind's hue, so neighbouring
// microbatches of one kind stay apart in a pipeline even without labels.
func spanColor(k timeline.Kind, mb int) Color {
	c, _ := kindColor(k)
	if mb%2 != 0 && !k.IsCommunication() {
		c = mix(c, colWhite, 0.3)
	}
	return c
}

// Traffic kinds of a training run, which colour packets and the strip's
// communication lane.
const (
	trafficPP    = "pp"   // pipeline messages between stages
	trafficDP    = "dp"   // data-parallel gradient collectives
	trafficSDP   = "sdp"  // subnetwork data parallelism's group sums
	trafficZeRO  = "zero" // ZeRO-3 parameter gathers
	trafficOther = ""     // a lone collective's traffic
)

// trafficColor tells the traffic kinds apart: green, sky blue and dark
// purple differ in hue for every common colour-vision deficiency and in
// lightness in greyscale.
func trafficColor(kind string) Color {
	switch kind {
	case trafficPP:
		return stateStyle[Communicating].fill
	case trafficDP:
		return Color{0x56, 0xb4, 0xe9, 0xff}
	case trafficSDP:
		return Color{0xe6, 0x9f, 0x00, 0xff}
	case trafficZeRO:
		return colAllGather
	case trafficActivations:
		return colActivations
	case trafficGradients:
		return colGradients
	case trafficModel:
		return colModel
	}
	return stateStyle[Communicating].fill
}

// textOn is the text colour that reads best on fill c: white on dark
// fills, near-black on light ones (by relative luminance).
func textOn(c Color) Color {
	l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	if l < 140 {
		return colWhite
	}
	return colDarkText
}

// Colours of the memory panel's categories, bottom to top.
var memColors = [...]Color{
	{0x4e, 0x79, 0xa7, 0xff}, // parameters
	{0xa0, 0xcb, 0xe8, 0xff}, // gradients
	{0xf2, 0x8e, 0x2b, 0xff}, // optimizer states
	{0xba, 0xb0, 0xac, 0xff}, // buffers
	{0x76, 0xb7, 0xb2, 0xff}, // activations
	{0xe1, 0x57, 0x59, 0xff}, // KV cache
	{0x59, 0x59, 0x59, 0xff}, // memory reserve (context, workspaces, NCCL, allocator)
}

// Colours of a serving run: the host work a GPU waits for, and the tints
// that fill a GPU's idle time in the strip by the bubble's kind (light, so
// that the work stays the strongest colour).
var (
	colHostWork   = Color{0x8c, 0x56, 0x3c, 0xff}
	colImbalance  = Color{0xf9, 0xc9, 0x8f, 0xff}
	colIntraStage = Color{0xe3, 0xb7, 0xa6, 0xff}
	colInterStage = Color{0xa8, 0xdc, 0xa0, 0xff}
)

var (
	colOOM      = Color{0xd6, 0x27, 0x28, 0xff}
	colNearOOM  = Color{0xe8, 0x9a, 0x00, 0xff} // above 90% of HBM, within it
	colHBMLimit = Color{0x22, 0x22, 0x22, 0xff}
)

// measuredKinds are a measured run's kernel classes (package kineto names
// them) in the legend's order, with their labels and fills: GEMMs in the
// blue of compute, attention mauve, elementwise and norms orange, copies
// and sets teal, other kernels yellow; apart in hue and, but for the
// yellow and orange, in lightness. Only a profiler's trace has these
// kinds, so the hues of a simulated run's kinds are free.
var measuredKinds = [...]struct {
	kind  timeline.Kind
	label string
	fill  Color
}{
	{timeline.GEMM, "GEMM, conv", stateStyle[Forward].fill},
	{timeline.Attention, "attention", stateStyle[Optimizer].fill},
	{timeline.Elementwise, "elementwise/norm", stateStyle[Backward].fill},
	{timeline.Memcpy, "copy/set", Color{0x76, 0xb7, 0xb2, 0xff}},
	{timeline.Kernel, "other kernel", stateStyle[BackwardWeight].fill},
}

// measuredClass is the index in measuredKinds of a measured kernel of
// kind k (a memset counts as a copy), -1 for another kind. It is not
// inlined: its callers are, in many places.
//
//go:noinline
func measuredClass(k timeline.Kind) int {
	if k == timeline.Memset {
		k = timeline.Memcpy
	}
	for j := range measuredKinds {
		if measuredKinds[j].kind == k {
			return j
		}
	}
	return -1
}

// measuredEntries is the legend of a measured run: the kernel classes it
// has, then communication and idle.
func measuredEntries(tl *timeline.Timeline) []legendEntry {
	var has [len(measuredKinds)]bool
	for i := range tl.Spans {
		if j := measuredClass(tl.Spans[i].Kind); j >= 0 {
			has[j] = true
		}
	}
	var out []legendEntry
	for j, e := range measuredKinds {
		if has[j] {
			out = append(out, legendEntry{string(e.kind), e.label, e.fill, Color{}})
		}
	}
	return append(out, legendEntries[2], legendEntries[3])
}
