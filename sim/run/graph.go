package run

import (
	"paraplay/sim/engine"
	"paraplay/sim/fabric"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// op is one node of the task graph: a compute span on a GPU's compute
// stream or a transfer on a link.
type op struct {
	compute  bool
	span     timeline.Span     // compute: GPU, Kind, Label (times filled in)
	duration units.Time        // compute: how long it runs
	xfer     timeline.Transfer // transfer: Src, Dst, Bytes, Collective, Step, Chunk, Phase
	waiting  int               // unfinished predecessors
	next     []int             // ops that wait for this one
}

// graph executes ops once their predecessors finish. A GPU's compute
// stream runs one span at a time in the order they became ready; messages
// share the links they cross (see package fabric).
type graph struct {
	ops    []op
	eng    *engine.Engine
	net    *fabric.Network
	gpuAt  []units.Time // when each GPU's compute stream is next free
	// Messages between the same two GPUs are delivered in order, one at a
	// time, as on an NCCL connection or an MPI channel: a later message
	// waits in channel until the one before it has arrived.
	inFlight map[[2]int]bool
	channel  map[[2]int][]int
	out    *timeline.Timeline
	failed error
}

func newGraph(eng *engine.Engine, net *fabric.Network, gpus int, out *timeline.Timeline) *graph {
	return &graph{eng: eng, net: net, gpuAt: make([]units.Time, gpus), out: out,
		inFlight: map[[2]int]bool{}, channel: map[[2]int][]int{}}
}

// add appends an op that waits for deps and returns its index.
func (g *graph) add(o op, deps ...int) int {
	id := len(g.ops)
	o.waiting = len(deps)
	g.ops = append(g.ops, o)
	for _, d := range deps {
		g.ops[d].next = append(g.ops[d].next, id)
	}
	return id
}

// execute plays the graph from time 0 and returns the time the last op ended.
func (g *graph) execute() units.Time {
	for i := range g.ops {
		if g.ops[i].waiting == 0 {
			id := i
			g.eng.At(0, func() { g.start(id) })
		}
	}
	return g.eng.Run()
}

func (g *graph) start(id int) {
	o := &g.ops[id]
	now := g.eng.Now()
	if o.compute {
		start := max(now, g.gpuAt[o.span.GPU])
		end := start + o.duration
		g.gpuAt[o.span.GPU] = end
		o.span.Start, o.span.End = start, end
		g.out.Spans = append(g.out.Spans, o.span)
		g.eng.At(end, func() { g.finish(id) })
		return
	}
	pair := [2]int{o.xfer.Src, o.xfer.Dst}
	if g.inFlight[pair] {
		g.channel[pair] = append(g.channel[pair], id)
		return
	}
	g.send(id)
}

func (g *graph) send(id int) {
	o := &g.ops[id]
	pair := [2]int{o.xfer.Src, o.xfer.Dst}
	g.inFlight[pair] = true
	err := g.net.Send(o.xfer.Src, o.xfer.Dst, o.xfer.Bytes, func(m *fabric.Message) {
		x := o.xfer
		x.Path, x.Start, x.End, x.Rates = m.Path, m.Start, m.End, m.Rates
		g.out.Transfers = append(g.out.Transfers, x)
		g.inFlight[pair] = false
		if q := g.channel[pair]; len(q) > 0 {
			g.channel[pair] = q[1:]
			g.send(q[0])
		}
		g.finish(id)
	})
	if err != nil && g.failed == nil {
		g.failed = err
	}
}

func (g *graph) finish(id int) {
	for _, n := range g.ops[id].next {
		g.ops[n].waiting--
		if g.ops[n].waiting == 0 {
			g.start(n)
		}
	}
}
