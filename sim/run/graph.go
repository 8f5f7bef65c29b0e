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
// stream runs one span at a time in the order they became ready; a link
// carries one message at a time (see package fabric).
type graph struct {
	ops    []op
	eng    engine.Engine
	net    *fabric.Network
	gpuAt  []units.Time // when each GPU's compute stream is next free
	out    *timeline.Timeline
	failed error
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
	var end units.Time
	if o.compute {
		start := max(now, g.gpuAt[o.span.GPU])
		end = start + o.duration
		g.gpuAt[o.span.GPU] = end
		o.span.Start, o.span.End = start, end
		g.out.Spans = append(g.out.Spans, o.span)
	} else {
		b, err := g.net.Send(now, o.xfer.Src, o.xfer.Dst, o.xfer.Bytes)
		if err != nil {
			g.failed = err
			return
		}
		o.xfer.Link, o.xfer.Start, o.xfer.End = b.Link, b.Start, b.End
		end = b.End
		g.out.Transfers = append(g.out.Transfers, o.xfer)
	}
	g.eng.At(end, func() { g.finish(id) })
}

func (g *graph) finish(id int) {
	for _, n := range g.ops[id].next {
		g.ops[n].waiting--
		if g.ops[n].waiting == 0 {
			g.start(n)
		}
	}
}
