package taskgraph

import (
	"paraplay/sim/collective"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Group is work that a group of GPUs does in lockstep, such as a pipeline
// op of one tensor- and context-parallel group. It occupies the compute
// streams of all of them: compute first, then the group's blocking
// communication (Megatron's tensor-parallel collectives run on the
// critical path between a layer's matmuls; ParaPlay draws them as one
// span after the compute).
type Group struct {
	GPUs     []int         // the group; shared, never changed
	Compute  units.Time    // the compute part
	Comm     units.Time    // the blocking communication part
	CommKind timeline.Kind // the kind of Comm's span
	// Tail is more blocking communication after Comm, of its own kind
	// (a mixture of experts' all-to-alls and its wait for the slowest GPU
	// of the expert-parallel group).
	Tail     units.Time
	TailKind timeline.Kind
	Span     timeline.Span // template of the spans: Kind, Microbatch, Stage, Label
	// Take is the activation memory taken on each GPU when the op starts,
	// Give what it gives back when it ends (with TrackMemory).
	Take, Give Footprint
}

// Footprint is activation memory: bytes, and the stage-equivalents of
// in-flight microbatches they stand for.
type Footprint struct {
	Bytes, InFlight float64
}

// ClosedForm is a collective priced by its closed form instead of simulated
// message by message: it occupies the communication streams of its GPUs
// (compute goes on) for Time, and is recorded in the timeline's
// Collectives. With Purpose "pp" it is a point-to-point message priced by
// its α–β cost: recorded, but holding no stream.
type ClosedForm struct {
	Op                 collective.Op
	Algorithm, Purpose string
	// Protocol and Channels are recorded as timeline.Collective's.
	Protocol string
	Channels int
	Bytes    units.Bytes
	GPUs     []int
	Time     units.Time
}

// analytic is a closed-form op as it runs.
type analytic struct {
	gpus []int
	d    units.Time
	tl   int  // its record in the timeline's Collectives, or −1
	free bool // it occupies no stream
}

// AddGroup adds a group op that waits for deps.
func (g *Graph) AddGroup(o Group, deps ...int) int {
	g.groups = append(g.groups, o)
	return g.add(op{kind: opGroup, item: int32(len(g.groups) - 1)}, deps)
}

// AddClosedForm adds a closed-form collective that waits for deps; with no
// GPUs it leaves no record.
func (g *Graph) AddClosedForm(a ClosedForm, deps ...int) int {
	tl := -1
	if len(a.GPUs) > 0 {
		tl = len(g.out.Collectives)
		ch := a.Channels
		if ch <= 1 {
			ch = 0 // one channel, as a schedule of one ring records it
		}
		g.out.Collectives = append(g.out.Collectives, timeline.Collective{Name: a.Op, Algorithm: a.Algorithm, Protocol: a.Protocol, Channels: ch, Ranks: len(a.GPUs),
			Bytes: a.Bytes, GPUs: append([]int(nil), a.GPUs...), Purpose: a.Purpose, Start: -1})
	}
	g.analytics = append(g.analytics, analytic{gpus: a.GPUs, d: a.Time, tl: tl, free: a.Purpose == "pp"})
	return g.add(op{kind: opAnalytic, item: int32(len(g.analytics) - 1)}, deps)
}

// AddDelay adds an op that ends d after deps, holding nothing and
// leaving no record.
func (g *Graph) AddDelay(d units.Time, deps ...int) int {
	g.analytics = append(g.analytics, analytic{d: d, tl: -1})
	return g.add(op{kind: opAnalytic, item: int32(len(g.analytics) - 1)}, deps)
}

// ScaleCompute has f give each group op's compute time when it starts
// (known then: its GPUs' types, fail-slow state and jitter); without it,
// a group op computes for its nominal Compute.
func (g *Graph) ScaleCompute(f func(o *Group, id int, start units.Time) units.Time) {
	g.hooks.scale = f
}

func (g *Graph) startGroup(id int32) {
	o := &g.groups[g.ops[id].item]
	start := g.eng.Now()
	for _, gpu := range o.GPUs {
		start = max(start, g.gpus.computeAt[gpu])
	}
	compute := o.Compute
	if g.hooks.scale != nil {
		compute = g.hooks.scale(o, int(id), start)
	}
	end := start + compute + o.Comm + o.Tail
	for _, gpu := range o.GPUs {
		g.gpus.computeAt[gpu] = end
	}
	g.eng.At(start, func() { g.beginGroup(id, start, compute, end) })
}

func (g *Graph) beginGroup(id int32, start, compute, end units.Time) {
	o := &g.groups[g.ops[id].item]
	for _, gpu := range o.GPUs {
		if compute > 0 {
			sp := o.Span
			sp.GPU, sp.Start, sp.End = gpu, start, start+compute
			g.out.Spans = append(g.out.Spans, sp)
		}
		if o.Comm > 0 {
			sp := o.Span
			sp.GPU, sp.Kind, sp.Start, sp.End = gpu, o.CommKind, start+compute, start+compute+o.Comm
			g.out.Spans = append(g.out.Spans, sp)
		}
		if o.Tail > 0 {
			sp := o.Span
			sp.GPU, sp.Kind, sp.Start, sp.End = gpu, o.TailKind, end-o.Tail, end
			g.out.Spans = append(g.out.Spans, sp)
		}
		if g.gpus.mem != nil {
			g.gpus.mem[gpu].change(start, o.Take.Bytes, o.Take.InFlight)
		}
	}
	g.eng.At(end, func() {
		if g.gpus.mem != nil {
			for _, gpu := range o.GPUs {
				g.gpus.mem[gpu].change(end, -o.Give.Bytes, -o.Give.InFlight)
			}
		}
		g.finish(id)
	})
}

func (g *Graph) startAnalytic(id int32) {
	o := &g.analytics[g.ops[id].item]
	start := g.eng.Now()
	if !o.free {
		for _, gpu := range o.gpus {
			start = max(start, g.gpus.commAt[gpu])
		}
	}
	end := start + o.d
	if !o.free {
		for _, gpu := range o.gpus {
			g.gpus.commAt[gpu] = end
		}
	}
	if o.tl >= 0 {
		c := &g.out.Collectives[o.tl]
		c.Start, c.End = start, end
	}
	g.eng.At(end, func() { g.finish(id) })
}

// Nominal is op id as planned, before ScaleCompute: its group (nil unless
// a group op) and its time, a group's Compute+Comm+Tail or a closed
// form's or delay's; 0 for a message, whose time is the network's, and a
// join. A run-time scheduler estimates with it.
func (g *Graph) Nominal(id int) (*Group, units.Time) {
	o := g.ops[id]
	switch o.kind {
	case opGroup:
		gr := &g.groups[o.item]
		return gr, gr.Compute + gr.Comm + gr.Tail
	case opAnalytic:
		return nil, g.analytics[o.item].d
	case opCompute:
		return nil, g.spans[o.item].End
	}
	return nil, 0
}
