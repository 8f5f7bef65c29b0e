package run

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// groupOp is work that a group of GPUs does in lockstep: a pipeline op of
// one tensor- and context-parallel group. It occupies the compute streams
// of all of them: compute first, then the group's blocking communication
// (Megatron's tensor-parallel collectives run on the critical path between
// a layer's matmuls; ParaPlay draws them as one span after the compute).
type groupOp struct {
	gpus     []int         // the group; shared, never changed
	compute  units.Time    // the compute part
	comm     units.Time    // the blocking communication part
	commKind timeline.Kind // the kind of comm's span
	span     timeline.Span // template: Kind, Microbatch, Stage, Label
	// Activation memory: on each GPU, actIn bytes (inflightIn
	// stage-equivalents) are taken when the op starts and actOut bytes
	// released when it ends.
	actIn, actOut           float64
	inflightIn, inflightOut float64
}

// analyticOp is a collective priced by its closed form: it occupies the
// communication streams of its GPUs (compute goes on) for d.
type analyticOp struct {
	gpus []int
	d    units.Time
	tl   int  // its record in the timeline's Collectives
	free bool // a point-to-point delay: it occupies no stream
}

// memTrack is one GPU's activation memory as the run goes.
type memTrack struct {
	bytes, inflight float64
	points          []timeline.MemoryPoint
	peak, peakIn    float64
}

func (m *memTrack) change(at units.Time, bytes, inflight float64) {
	if bytes == 0 && inflight == 0 {
		return
	}
	m.bytes += bytes
	m.inflight += inflight
	if m.bytes < 0 { // float dust from releasing what was taken
		m.bytes = 0
	}
	p := timeline.MemoryPoint{At: at, Bytes: units.Bytes(m.bytes + 0.5), InFlight: m.inflight}
	if n := len(m.points); n > 0 && m.points[n-1].At == at {
		m.points[n-1] = p
	} else {
		m.points = append(m.points, p)
	}
	if m.bytes > m.peak || (m.bytes == m.peak && m.inflight > m.peakIn) {
		m.peak, m.peakIn = m.bytes, m.inflight
	}
}

// addGroup adds a group op that waits for deps.
func (g *graph) addGroup(o groupOp, deps ...int) int {
	g.groups = append(g.groups, o)
	return g.add(op{kind: opGroup, item: int32(len(g.groups) - 1)}, deps)
}

// addAnalytic adds a closed-form collective on gpus that waits for deps and
// records it in the timeline with the given name, algorithm and purpose.
// With no GPUs it is a plain delay and leaves no record; with purpose
// "pp" it is a point-to-point message priced by its α–β cost, recorded
// but holding no stream.
func (g *graph) addAnalytic(name, algo, purpose string, bytes units.Bytes, gpus []int, d units.Time, deps ...int) int {
	tl := -1
	if len(gpus) > 0 {
		tl = len(g.out.Collectives)
		g.out.Collectives = append(g.out.Collectives, timeline.Collective{Name: name, Algorithm: algo, Ranks: len(gpus),
			Bytes: bytes, GPUs: append([]int(nil), gpus...), Purpose: purpose, Start: -1})
	}
	g.analytics = append(g.analytics, analyticOp{gpus: gpus, d: d, tl: tl, free: purpose == "pp"})
	return g.add(op{kind: opAnalytic, item: int32(len(g.analytics) - 1)}, deps)
}

// addJoin adds an op that does nothing but wait for deps.
func (g *graph) addJoin(deps ...int) int {
	return g.add(op{kind: opJoin}, deps)
}

func (g *graph) startGroup(id int32) {
	o := &g.groups[g.ops[id].item]
	start := g.eng.Now()
	for _, gpu := range o.gpus {
		start = max(start, g.gpuAt[gpu])
	}
	compute := o.compute
	if g.scale != nil {
		// Known when the op starts: its GPUs' types, fail-slow state
		// and jitter (faults.go).
		compute = g.scale(o, id, start)
	}
	end := start + compute + o.comm
	for _, gpu := range o.gpus {
		g.gpuAt[gpu] = end
	}
	g.eng.At(start, func() { g.beginGroup(id, start, compute, end) })
}

func (g *graph) beginGroup(id int32, start, compute, end units.Time) {
	o := &g.groups[g.ops[id].item]
	for _, gpu := range o.gpus {
		if compute > 0 {
			sp := o.span
			sp.GPU, sp.Start, sp.End = gpu, start, start+compute
			g.out.Spans = append(g.out.Spans, sp)
		}
		if o.comm > 0 {
			sp := o.span
			sp.GPU, sp.Kind, sp.Start, sp.End = gpu, o.commKind, start+compute, end
			g.out.Spans = append(g.out.Spans, sp)
		}
		if g.mem != nil {
			g.mem[gpu].change(start, o.actIn, o.inflightIn)
		}
	}
	g.eng.At(end, func() {
		if g.mem != nil {
			for _, gpu := range o.gpus {
				g.mem[gpu].change(end, -o.actOut, -o.inflightOut)
			}
		}
		g.finish(id)
	})
}

func (g *graph) startAnalytic(id int32) {
	o := &g.analytics[g.ops[id].item]
	start := g.eng.Now()
	if !o.free {
		for _, gpu := range o.gpus {
			start = max(start, g.commAt[gpu])
		}
	}
	end := start + o.d
	if !o.free {
		for _, gpu := range o.gpus {
			g.commAt[gpu] = end
		}
	}
	if o.tl >= 0 {
		c := &g.out.Collectives[o.tl]
		c.Start, c.End = start, end
	}
	g.eng.At(end, func() { g.finish(id) })
}
