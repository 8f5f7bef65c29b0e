package scene

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// memCategories name the memory panel's categories bottom to top, as the
// ID suffix of their rects.
var memCategories = [...]string{"parameters", "gradients", "optimizer", "buffers", "activations", "kv", "reserve"}

// memBytes splits m at instant t into the categories of memCategories.
func memBytes(m *timeline.Memory, t units.Time) [len(memCategories)]units.Bytes {
	kv := m.KVAt(t)
	return [...]units.Bytes{m.Parameters, m.Gradients, m.OptimizerStates, m.Buffers, m.At(t) - m.Static() - kv, kv, m.Reserve.Total()}
}

// memPart is a category a run's bars and legend show: its index in
// memCategories and its legend label.
type memPart struct {
	k     int
	label string
}

// trainingMemParts are a training run's model states, buffers and
// activations.
var trainingMemParts = []memPart{{0, "params"}, {1, "grads"}, {2, "optimizer"}, {3, "buffers"}, {4, "activations"}}

// reserveMemParts are a training run's parts under its memory reserve
// (CUDA context, workspaces, NCCL buffers, allocator segments), which
// stays at the bottom of the bar for the whole run.
var reserveMemParts = append([]memPart{{6, "reserve"}}, trainingMemParts...)

// memoryOf returns GPU gpu's memory record, or nil.
func memoryOf(tl *timeline.Timeline, gpu int) *timeline.Memory {
	if gpu >= 0 && gpu < len(tl.Memory) && tl.Memory[gpu].GPU == gpu {
		return &tl.Memory[gpu]
	}
	for i := range tl.Memory {
		if tl.Memory[i].GPU == gpu {
			return &tl.Memory[i]
		}
	}
	return nil
}

// memOverflow is the room above the HBM line, as a fraction of the bar
// height, where a total beyond the capacity shows in red.
const memOverflow = 0.12

// memLayout places the memory bars in their area.
type memLayout struct {
	x0, slot, barW  float64
	base, height    float64 // the bars' bottom, and the height of a full HBM
	scale           units.Bytes
	perGPUCapacity  bool
	labelY, labelSz float64
}

// memory draws one stacked bar per shown GPU at instant t in r: the model
// states, buffers and activations, each category's height its bytes over
// the GPU's capacity times the bar height, under a line at the HBM limit.
// A GPU whose peak exceeds its HBM gets a red outline and "OOM", and the
// part of its total above the line is red; one whose peak is above 90% of
// its HBM and within it (timeline.Memory.NearOOM) in a training run gets
// an amber outline.
func (b *builder) memory(t units.Time, r box) {
	tl, gpus := b.f.tl, b.memGPUs()
	size := 11 * b.fs
	if r.h() < 70*b.fs || r.w() < 60*b.s {
		return
	}
	title := "memory at t"
	var L memLayout
	L.scale, L.perGPUCapacity = b.memScale()
	switch {
	case len(tl.Memory) == 0 || !L.perGPUCapacity && L.scale <= 0:
		b.text("mem/title", r.x0, r.y0+size, truncate("memory: not modelled", size, r.w()), size, colMuted, AnchorStart)
		return
	case L.perGPUCapacity:
		title += " · line: HBM " + gib(b.f.metrics.hbm)
	default:
		title += " (no HBM size)"
	}
	room := r.w()
	if msg, c := b.f.metrics.memAlert(); msg != "" {
		b.text("mem/oom", r.x1, r.y0+size, msg, size, c, AnchorEnd).Bold = true
		room -= 1.25*textWidth(msg, size) + 8*b.s // the title stops short of it (bold is wider than textWidth's estimate)
	}
	b.text("mem/title", r.x0, r.y0+size, truncate(title, size, room), size, colMuted, AnchorStart)
	legendTop := b.memLegend(r)
	L.labelSz = min(9*b.fs, 60*b.s)
	L.labelY = legendTop - 4*b.s
	L.base = L.labelY - L.labelSz - 2*b.s
	top := r.y0 + size + 6*b.s
	if b.f.metrics.oom > 0 {
		top += min(9*b.fs, 60*b.s) + 2*b.s // room for the bars' "OOM" labels
	}
	L.height = max(0, L.base-top) / (1 + memOverflow)
	L.slot = r.w() / float64(len(gpus))
	L.barW = min(L.slot*0.72, 28*b.s)
	L.x0 = r.x0
	if L.height < 10 {
		return
	}
	for i, gpu := range gpus {
		b.memBar(i, gpu, t, L)
	}
	if L.perGPUCapacity {
		limitY := L.base - L.height
		b.line("mem/limit", r.x0, limitY, r.x1, limitY, colHBMLimit, max(1, 1.2*b.s))
	}
}

// memGPUs are the GPUs with a memory bar, by default the strip's rows.
func (b *builder) memGPUs() []int { return b.f.look.memGPUs(b.f) }

// memScale reports whether every shown GPU has a capacity (each bar is
// then scaled to its own), and the largest peak of the shown GPUs, which
// fills a bar otherwise.
func (b *builder) memScale() (units.Bytes, bool) {
	var peak units.Bytes
	all := true
	for _, g := range b.memGPUs() {
		m := memoryOf(b.f.tl, g)
		if m == nil {
			continue
		}
		all = all && m.Capacity > 0
		peak = max(peak, m.Peak)
	}
	return max(peak, 0), all
}

// memBar draws the i-th bar, for GPU gpu.
func (b *builder) memBar(i, gpu int, t units.Time, L memLayout) {
	m := memoryOf(b.f.tl, gpu)
	id := "mem/" + itoa(gpu)
	cx := L.x0 + (float64(i)+0.5)*L.slot
	x := cx - L.barW/2
	if m == nil {
		return
	}
	scale := L.scale
	if L.perGPUCapacity {
		scale = m.Capacity
	}
	limitY := L.base - L.height
	ceiling := limitY - memOverflow*L.height
	track := b.rect(id, x, limitY, L.barW, L.height, colRowShade)
	switch {
	case m.OOM():
		track.Stroke, track.StrokeWidth = colOOM, max(1, 1.5*b.s)
	case m.NearOOM() && b.f.tl.Training != nil: // a serving run fills HBM on purpose
		track.Stroke, track.StrokeWidth = colNearOOM, max(1, 1.5*b.s)
	}
	y := L.base
	bytes := memBytes(m, t)
	for _, p := range b.f.look.memParts {
		v := bytes[p.k]
		h := float64(max(v, 0)) / float64(scale) * L.height
		h = min(h, y-ceiling)
		y -= h
		b.rect(id+"/"+memCategories[p.k], x, y, L.barW, h, memColors[p.k])
	}
	if L.perGPUCapacity && y < limitY {
		b.rect(id+"/over", x, y, L.barW, limitY-y, colOOM)
	}
	if m.OOM() && textWidth("OOM", L.labelSz) <= L.slot {
		b.text(id+"/oom", cx, ceiling-2*b.s, "OOM", L.labelSz, colOOM, AnchorMiddle).Bold = true
	}
	label := itoa(gpu)
	if textWidth(label, L.labelSz) <= L.slot-1 {
		b.text(id+"/label", cx, L.labelY, label, L.labelSz, colMuted, AnchorMiddle)
	}
}

// memLegend draws the categories' swatches in rows at the bottom of r and
// returns the top of the first row.
func (b *builder) memLegend(r box) float64 {
	size, sw := 10*b.fs, 9*b.fs
	rowH := size + 4*b.s
	parts := b.f.look.memParts
	var rows [][]memPart // runs of parts
	start, x := 0, r.x0
	for i, p := range parts {
		w := sw + 4*b.s + textWidth(p.label, size) + 8*b.s
		if x+w > r.x1 && i > start {
			rows, start, x = append(rows, parts[start:i]), i, r.x0
		}
		x += w
	}
	rows = append(rows, parts[start:])
	top := r.y1 - float64(len(rows))*rowH
	for j, row := range rows {
		y := top + float64(j+1)*rowH - 3*b.s
		x := r.x0
		for _, p := range row {
			id := "mem/legend/" + memCategories[p.k]
			b.rect(id+"/swatch", x, y-sw*0.9, sw, sw, memColors[p.k])
			b.text(id+"/label", x+sw+4*b.s, y, p.label, size, colText, AnchorStart)
			x += sw + 4*b.s + textWidth(p.label, size) + 8*b.s
		}
	}
	return top
}

// memAlert is the memory panel's alert and its colour: the GPUs out of
// memory, else the GPUs whose peak is in the warning zone above 90% of
// their HBM, else nothing.
func (m metrics) memAlert() (string, Color) {
	plural := func(n int) string {
		if n > 1 {
			return "s"
		}
		return ""
	}
	switch {
	case m.oom > 0:
		return "OOM on " + itoa(m.oom) + " GPU" + plural(m.oom), colOOM
	case m.nearOOM > 0:
		return ">90% HBM on " + itoa(m.nearOOM) + " GPU" + plural(m.nearOOM), colNearOOM
	}
	return "", Color{}
}
