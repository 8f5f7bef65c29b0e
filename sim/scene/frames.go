package scene

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Frames is a run prepared for drawing many instants: what every frame of
// it shares (the strip's rows, the training metrics, the legend's entries,
// the collectives recorded as one span) is worked out once, so that an
// animation calls NewFrames once and Frames.Build every frame.
//
// Frames never changes the timeline; the timeline must not change while
// Frames is in use. Build remembers the last layout's strip, so a Frames
// must not be used from several goroutines at once.
type Frames struct {
	tl   *timeline.Timeline
	look *look // how the run's strategy record is drawn (look.go)
	// training is look.training, kept at hand for the inner loops.
	training bool
	rows     stripRows
	metrics  *metrics // nil unless training: behind a pointer, as collectives have none
	colls    []*timeline.Collective
	extras   []Overlay // the overlays of records from outside package scene
	strip    stripMemo // the strip of the last layout drawn
	spare    []Item    // storage BuildInto hands back for reuse
	live     liveIndex // finds the transfers in flight at an instant
	liveBuf  []int32   // the last frame's answer, reused
	spans    liveIndex // finds the spans running at an instant
	spansBuf []int32
	steps    []int // by collective, its number of steps
	// channels is the most channels a collective of the run runs on;
	// several, whether a message carries several channels' slices.
	channels int
	several  bool
	innet    []inNetwork // the in-network all-reduces (innetwork.go)

	// Per-frame work kept between frames, so that a steady animation
	// allocates next to nothing (see ids.go).
	ids      frameIDs
	topo     topoMemo     // the last topology layout
	ring     ringMemo     // the last ring layout
	loadsBuf []float64    // link loads, by link id
	busyBuf  []bool       // ring links carrying a transfer, by link id
	inColl   []int32      // by GPU, 1 + the torus collective it is in at t (0: none)
	actsBuf  []activity   // what each GPU does at the frame's instant, by GPU id
	legend   []legendItem // the legend's swatches, made on first use
	bld      builder      // the frame being built, kept so it need not escape
}

// NewFrames prepares tl for Build. A nil timeline is allowed: its frames
// hold a message.
func NewFrames(tl *timeline.Timeline) *Frames {
	f := &Frames{tl: tl, ids: newFrameIDs(tl), look: lookOf(tl)}
	if tl == nil || len(tl.GPUs) == 0 {
		return f
	}
	f.training = f.look.training
	f.rows = f.look.rows(tl)
	f.colls = spanCollectives(tl)
	f.live = newLiveIndex(tl)
	f.spans = newSpanIndex(tl)
	f.steps = collectiveSteps(tl)
	f.channels, f.several = runChannels(tl)
	f.innet = inNetworksOf(tl)
	if f.look.metrics != nil {
		f.metrics = f.look.metrics(tl)
	}
	f.extras = extraOverlays(tl)
	return f
}

// Build is the package's Build for the prepared timeline.
func (f *Frames) Build(t units.Time, opt Options) DrawList {
	f.ids.xfer.next()
	f.ids.xferLabel.next()
	layout := func(o Options) DrawList {
		if o.View != ViewAll {
			o.Compact = false // a view is a part of the full layout (Options.Compact)
			return f.buildView(t, o)
		}
		return f.build(t, o)
	}
	var dl DrawList
	if opt.Present {
		dl = f.withCaption(t, opt, layout)
		thickenLines(dl)
	} else {
		dl = layout(opt)
	}
	if opt.Theme == ThemeDark {
		darken(&dl)
	}
	return dl
}

// liveAt is the transfers in flight at t, ascending.
func (f *Frames) liveAt(t units.Time) []int32 {
	f.liveBuf = f.live.at(f.tl, t, f.liveBuf)
	return f.liveBuf
}

// spansAt is the spans running at t, ascending.
func (f *Frames) spansAt(t units.Time) []int32 {
	f.spansBuf = f.spans.spansAt(f.tl, t, f.spansBuf)
	return f.spansBuf
}

// BuildInto is Build writing into dl and reusing the storage of dl's
// items, so an animation that keeps one draw list allocates almost nothing
// per frame. dl's previous items are overwritten.
func (f *Frames) BuildInto(dl *DrawList, t units.Time, opt Options) {
	f.spare = dl.Items[:0]
	*dl = f.Build(t, opt)
	f.spare = nil
}

// items returns an empty item slice with room for n, the spare storage
// BuildInto handed over when it is big enough.
func (f *Frames) items(n int) []Item {
	if s := f.spare; cap(s) >= n || cap(s) > 0 && n > 1<<12 {
		// Big frames keep the storage they have and let append grow it
		// rather than allocating a guess every frame.
		f.spare = nil
		return s[:0]
	}
	return make([]Item, 0, n)
}

// maxRowsPerGPU is the most GPUs the strip and the memory panel show one
// row or bar each; a larger training run shows one per pipeline stage.
const maxRowsPerGPU = 32

// maxRowsCollective is the most rows the strip gives a run that is not a
// training run (a collective, a data-parallel lesson).
const maxRowsCollective = 64

// stripRows are the GPUs the strip shows, one row each, in order.
type stripRows struct {
	gpus  []int
	row   []int // by GPU id: its row, or -1
	stage []int // by row: the pipeline stage (device) it stands for, or -1
	note  string
}

// chooseRows shows every GPU, except in a training run of more than
// maxRowsPerGPU GPUs, where it shows for each pipeline stage the GPU of
// data-parallel replica 0 and tensor- and context-parallel rank 0. A GPU's
// stage is the lowest Stage of its spans (an interleaved or V-shaped
// schedule puts stages d, d+p… on device d), and with tp innermost, then
// cp, pp and dp in the rank order, the lowest GPU id of a stage is that
// GPU.
func chooseRows(tl *timeline.Timeline, training bool) stripRows {
	n := len(tl.GPUs)
	r := stripRows{row: make([]int, n)}
	if !training {
		// Every GPU up to maxRowsCollective; beyond, every k-th, so rows
		// stay a few pixels high (a collective's GPUs all look alike).
		k := (n + maxRowsCollective - 1) / maxRowsCollective
		for i := range n {
			r.row[i] = -1
			if i%k == 0 {
				r.row[i] = len(r.gpus)
				r.gpus = append(r.gpus, i)
				r.stage = append(r.stage, -1)
			}
		}
		if k > 1 {
			r.note = "showing every " + ordinal(k) + " GPU (" + itoa(len(r.gpus)) + " of " + itoa(n) + ")"
		}
		return r
	}
	if n <= maxRowsPerGPU {
		r.gpus, r.stage = make([]int, n), make([]int, n)
		for i := range n {
			r.gpus[i], r.row[i], r.stage[i] = i, i, -1
		}
		return r
	}
	stage := make([]int, n)
	for i := range stage {
		stage[i] = -1
	}
	for i := range tl.Spans {
		sp := &tl.Spans[i]
		if sp.GPU >= 0 && sp.GPU < n && (stage[sp.GPU] < 0 || sp.Stage < stage[sp.GPU]) {
			stage[sp.GPU] = max(sp.Stage, 0)
		}
	}
	first := map[int]int{}
	for g := range n {
		r.row[g] = -1
		if _, ok := first[stage[g]]; !ok && stage[g] >= 0 {
			first[stage[g]] = g
		}
	}
	for d := 0; len(r.gpus) < len(first) && d <= n; d++ {
		if g, ok := first[d]; ok {
			r.row[g] = len(r.gpus)
			r.gpus = append(r.gpus, g)
			r.stage = append(r.stage, d)
		}
	}
	if len(r.gpus) == 0 { // no spans at all: the first GPU
		r.gpus, r.stage, r.row[0] = []int{0}, []int{-1}, 0
	}
	r.note = "showing tp rank 0 of each stage, replica 0 (" + itoa(len(r.gpus)) + " of " + itoa(n) + " GPUs)"
	return r
}

// rowName labels a row of the strip: the GPU's name, or its stage.
func (r stripRows) rowName(tl *timeline.Timeline, row int) string {
	if r.stage[row] >= 0 {
		return "stage " + itoa(r.stage[row])
	}
	return gpuName(tl, r.gpus[row])
}

// ordinal spells k as "2nd", "3rd", "8th", "11th", "21st".
func ordinal(k int) string {
	suffix := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return itoa(k) + suffix
}
