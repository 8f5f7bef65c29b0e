package scene

import (
	"slices"
	"strconv"
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Colours of a reinforcement-learning run's phases: generation teal,
// scoring yellow, training orange (the backward's hue: it is the step that
// learns), the reshard mauve, the weights' trip back dark slate.
var (
	colGenerate   = Color{0x76, 0xb7, 0xb2, 0xff}
	colScore      = Color{0xed, 0xc9, 0x48, 0xff}
	colTrain      = Color{0xf2, 0x8e, 0x2b, 0xff}
	colReshard    = Color{0xb0, 0x7a, 0xa1, 0xff}
	colWeightSync = Color{0x3d, 0x4e, 0x63, 0xff}
	colQueueSlot  = Color{0xe8, 0xf1, 0xfa, 0xff}
)

// rlhfKinds orders the legend of a reinforcement-learning run.
var rlhfKinds = [...]timeline.Kind{timeline.Generate, timeline.Score, timeline.Train, timeline.Reshard, timeline.WeightSync}

// rlhfColor is the fill of a phase of a reinforcement-learning run.
func rlhfColor(k timeline.Kind) (Color, bool) {
	switch k {
	case timeline.Generate:
		return colGenerate, true
	case timeline.Score:
		return colScore, true
	case timeline.Train:
		return colTrain, true
	case timeline.Reshard:
		return colReshard, true
	case timeline.WeightSync:
		return colWeightSync, true
	}
	return Color{}, false
}

// rlhfLook draws a reinforcement-learning run (Timeline.RLHF): a
// collective's look with its spans labelled, dressed by rlhfOverlay, with
// rlhfEntries for its legend.
var rlhfLook = look{
	labelSpans: true,
	rows:       everyGPURows,
	legend:     rlhfEntries,
	caption:    collectiveCaption,
	traffic:    collectiveTraffic,
	memGPUs:    stripGPUs,
	memParts:   trainingMemParts,
	overlay:    (*builder).rlhfOverlay,
}

// rlhfEntries is the legend of a reinforcement-learning run: the phases
// it holds, then idle.
func rlhfEntries(f *Frames) []legendEntry {
	tl := f.tl
	var out []legendEntry
	for _, k := range rlhfKinds {
		for i := range tl.Spans {
			if tl.Spans[i].Kind == k {
				c, _ := rlhfColor(k)
				out = append(out, legendEntry{string(k), strings.ReplaceAll(string(k), "-", " "), c, Color{}})
				break
			}
		}
	}
	return append(out, legendEntry{"idle", "idle", stateStyle[Idle].fill, Color{}})
}

// rlhfOverlay dresses the network view of a reinforcement-learning run:
// each node box is named for its pool ("generation pool ·
// 2× h20 · $1.00/h · 34/96 GiB", red when it does not fit), each GPU box is filled with the colour of its phase
// at t and says which model runs there ("actor generate"), the caption
// says what the placement does and what the GPUs have cost so far, and a
// disaggregated run gets a row of slots for its rollout queue, filled to
// the queue's depth at t.
//
// Like asyncOverlay it edits the items the network view placed.
func (b *builder) rlhfOverlay(t units.Time) {
	tl := b.f.tl
	r := tl.RLHF
	at := make(map[string]int, len(b.items))
	for i := range b.items {
		at[b.items[i].ID] = i
	}
	for node, p := range r.Pools {
		if i, ok := at["node/"+itoa(node)+"/label"]; ok {
			it := &b.items[i]
			it.Text = truncate(poolLabel(p), it.Size, b.vw/float64(len(r.Pools))-24*b.s)
			it.Fill = colText
			if p.OOM() {
				it.Fill = colOOM
			}
		}
	}
	for g := range tl.GPUs {
		sp, ok := SpanAt(tl, g, t)
		if !ok {
			continue
		}
		c, known := rlhfColor(sp.Kind)
		i, has := at["gpu/"+itoa(g)]
		if !known || !has {
			continue
		}
		b.items[i].Fill = c
		box := b.items[i]
		if j, ok := at["gpu/"+itoa(g)+"/label"]; ok {
			b.items[j].Fill = textOn(c)
		}
		if j, ok := at["gpu/"+itoa(g)+"/state"]; ok {
			it := &b.items[j]
			it.Text, it.Fill = b.fitLabel(boxLabel(sp.Label), it.Size, box.W-4), textOn(c)
		} else if _, named := at["gpu/"+itoa(g)+"/label"]; named {
			// The box's state line was left out (its label for a kind
			// it does not know did not fit): write the phase there.
			nameSize, size := b.size(min(13*b.fs, box.H*0.36)), b.size(min(11*b.fs, box.H*0.3))
			if text := b.fitLabel(boxLabel(sp.Label), size, box.W-4); text != "" && box.H >= nameSize+size+8*b.s {
				b.text("gpu/"+itoa(g)+"/state", box.X+box.W/2, box.Y+box.H/2-2*b.s+size+4*b.s, text, size, textOn(c), AnchorMiddle)
			}
		}
	}
	b.rlhfCaption(tl, t, at)
	// No link carries traffic in this analytic run: the load legend goes,
	// and the queue takes its place.
	b.items = slices.DeleteFunc(b.items, func(it Item) bool { return strings.HasPrefix(it.ID, "legend/load/") })
	if r.Placement == "disaggregated" {
		b.queueMeter(r, t)
	}
}

// boxLabel shortens a span's label for a GPU box: "actor generate" to
// "actor gen", "weights → generator" to "send weights".
func boxLabel(label string) string {
	switch label {
	case "weights → generator":
		return "send weights"
	}
	return strings.Replace(label, " generate", " gen", 1)
}

// poolLabel names a pool for its node box, with its GPUs' price and
// estimated peak memory ("OOM" when it does not fit).
func poolLabel(p timeline.Pool) string {
	gib := func(b units.Bytes) string { return strconv.FormatFloat(float64(b)/float64(units.GiB), 'f', 0, 64) }
	mem := gib(p.PeakMemory) + "/" + gib(p.Capacity) + " GiB"
	if p.OOM() {
		mem = "OOM " + mem
	}
	return p.Name + " · " + itoa(len(p.GPUs)) + "× " + p.GPU + " · $" + strconv.FormatFloat(p.PricePerHour, 'f', 2, 64) + "/h · " + mem
}

// rlhfCaption writes, on the caption line, the step being played and the
// cost so far, e.g. "step 3 of 6 · η = 1 · $0.042 so far".
func (b *builder) rlhfCaption(tl *timeline.Timeline, t units.Time, at map[string]int) {
	r := tl.RLHF
	text := r.Placement + ": " + itoa(r.StepsDoneAt(t)) + " of " + itoa(len(r.Steps)) + " steps trained"
	if r.Placement == "disaggregated" {
		eta := "∞"
		if r.Staleness >= 0 {
			eta = itoa(r.Staleness)
		}
		text += " · η = " + eta
		if v, ok := versionAt(r, t); ok {
			text += " · generating with version " + itoa(v)
		}
	}
	text += " · $" + strconv.FormatFloat(r.CostAt(t), 'f', 3, 64) + " so far"
	size := 13 * b.fs
	room := b.vw - 24*b.s
	if r.Placement == "disaggregated" {
		room -= b.queueMeterWidth(r, t) + 12*b.s
	}
	text = truncate(text, size, room*textWidth(text, size)/max(b.wide(text, size), 1))
	if i, ok := at["caption"]; ok {
		b.items[i].Text = text
	} else if text != "" {
		b.text("caption", 12*b.s, 44*b.fs, text, size, colText, AnchorStart).Bold = true
	}
}

// versionAt is the policy version of the batch being generated at t.
func versionAt(r *timeline.RLHF, t units.Time) (int, bool) {
	for _, s := range r.Steps {
		if s.GenStart <= t && t < s.GenEnd {
			return s.Version, true
		}
	}
	return 0, false
}

// queueMeter draws the rollout queue at the top right of the network view:
// "rollout queue 2/4" and a slot per batch it can hold (up to the deepest
// it got when unbounded), the first depth of them filled.
func (b *builder) queueMeter(r *timeline.RLHF, t units.Time) {
	depth, slots, label := b.queueMeterParts(r, t)
	size, sw := 11*b.fs, 12*b.fs
	y := 44 * b.fs
	x := b.vw - 12*b.s - float64(slots)*(sw+2*b.s)
	for k := range slots {
		fill := colQueueSlot
		if k < depth {
			fill = colGenerate
		}
		sq := b.rect("rlhf/queue/"+itoa(k), x+float64(k)*(sw+2*b.s), y-sw*0.85, sw, sw*0.85, fill)
		sq.Stroke, sq.StrokeWidth = colBoxEdge, max(0.75, b.s)
	}
	b.text("rlhf/queue/label", x-6*b.s, y, label, size, colText, AnchorEnd).Bold = true
}

// queueMeterParts are the queue's depth at t, the slots the meter draws
// and its label ("queue" alone in a compact frame).
func (b *builder) queueMeterParts(r *timeline.RLHF, t units.Time) (depth, slots int, label string) {
	depth, slots = r.QueueAt(t), r.QueueCapacity
	capText := itoa(slots)
	if slots == 0 {
		slots, capText = max(r.MaxQueue(), 1), "∞"
	}
	label = "rollout queue "
	if b.compact {
		label = "queue "
	}
	return depth, min(slots, 16), label + itoa(depth) + "/" + capText
}

// queueMeterWidth is the width the queue meter takes at the right of the
// caption line.
func (b *builder) queueMeterWidth(r *timeline.RLHF, t units.Time) float64 {
	_, slots, label := b.queueMeterParts(r, t)
	return float64(slots)*(12*b.fs+2*b.s) + 6*b.s + b.wide(label, b.size(11*b.fs))
}
