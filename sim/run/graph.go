package run

import (
	"paraplay/sim/collective"
	"paraplay/sim/engine"
	"paraplay/sim/fabric"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// op is one node of the task graph: a compute span on a GPU's compute
// stream, or one message of a collective schedule. It is kept small
// (a 1,024-GPU ring all-reduce has two million of them): what it does is
// looked up in the graph's span templates or in the schedule.
type op struct {
	transfer bool
	item     int32   // compute: index into graph.spans; transfer: index into graph.xfers
	waiting  int32   // unfinished predecessors
	next     []int32 // ops that wait for this one
}

// xferRef names one transfer of one of the graph's collectives.
type xferRef struct {
	coll, index int32
}

// placedSchedule is a collective schedule with its ranks mapped to GPUs.
type placedSchedule struct {
	sch  collective.Schedule
	gpus []int // gpus[rank] is the GPU id of rank
}

// graph executes ops once their predecessors finish. A GPU's compute
// stream runs one span at a time in the order they became ready; messages
// share the links they cross (see package fabric).
type graph struct {
	ops   []op
	spans []timeline.Span // compute templates; End−Start is the duration
	xfers []xferRef
	colls []placedSchedule
	eng   *engine.Engine
	net   *fabric.Network
	gpuAt []units.Time // when each GPU's compute stream is next free
	// Messages between the same two GPUs are delivered in order, one at a
	// time, as on an NCCL connection or an MPI channel: a later message
	// waits in channel until the one before it has arrived.
	inFlight map[[2]int]bool
	channel  map[[2]int][]int32
	out      *timeline.Timeline
	failed   error
}

func newGraph(eng *engine.Engine, net *fabric.Network, gpus int, out *timeline.Timeline) *graph {
	return &graph{eng: eng, net: net, gpuAt: make([]units.Time, gpus), out: out,
		inFlight: map[[2]int]bool{}, channel: map[[2]int][]int32{}}
}

// addCompute adds a compute span of duration d (the template's Start and
// End are ignored) that waits for deps, and returns its op index.
func (g *graph) addCompute(span timeline.Span, d units.Time, deps ...int) int {
	span.Start, span.End = 0, d
	g.spans = append(g.spans, span)
	return g.add(op{item: int32(len(g.spans) - 1)}, deps)
}

// addSchedule adds a collective whose rank r runs on GPU gpus[r]. ready[r],
// if ≥ 0, is the op after which rank r may start sending. It returns the
// collective's index.
func (g *graph) addSchedule(sch collective.Schedule, gpus []int, ready []int) int {
	c := len(g.colls)
	g.colls = append(g.colls, placedSchedule{sch: sch, gpus: gpus})
	first := len(g.ops)
	for i, tr := range sch.Transfers {
		deps := make([]int, 0, 1+len(tr.After))
		if ready != nil && ready[tr.Src] >= 0 {
			deps = append(deps, ready[tr.Src])
		}
		for _, a := range tr.After {
			deps = append(deps, first+a)
		}
		g.xfers = append(g.xfers, xferRef{coll: int32(c), index: int32(i)})
		g.add(op{transfer: true, item: int32(len(g.xfers) - 1)}, deps)
	}
	return c
}

func (g *graph) add(o op, deps []int) int {
	id := len(g.ops)
	o.waiting = int32(len(deps))
	g.ops = append(g.ops, o)
	for _, d := range deps {
		g.ops[d].next = append(g.ops[d].next, int32(id))
	}
	return id
}

// execute plays the graph from time 0 and returns the time the last op ended.
func (g *graph) execute() units.Time {
	g.eng.At(0, func() {
		for i := range g.ops {
			if g.ops[i].waiting == 0 {
				g.start(int32(i))
			}
		}
	})
	return g.eng.Run()
}

func (g *graph) start(id int32) {
	o := &g.ops[id]
	if !o.transfer {
		span := g.spans[o.item]
		start := max(g.eng.Now(), g.gpuAt[span.GPU])
		span.Start, span.End = start, start+span.End
		g.gpuAt[span.GPU] = span.End
		g.out.Spans = append(g.out.Spans, span)
		g.eng.At(span.End, func() { g.finish(id) })
		return
	}
	src, dst := g.endpoints(o.item)
	pair := [2]int{src, dst}
	if g.inFlight[pair] {
		g.channel[pair] = append(g.channel[pair], id)
		return
	}
	g.send(id)
}

func (g *graph) endpoints(item int32) (src, dst int) {
	ref := g.xfers[item]
	c := &g.colls[ref.coll]
	tr := &c.sch.Transfers[ref.index]
	return c.gpus[tr.Src], c.gpus[tr.Dst]
}

func (g *graph) send(id int32) {
	ref := g.xfers[g.ops[id].item]
	c := &g.colls[ref.coll]
	tr := &c.sch.Transfers[ref.index]
	src, dst := c.gpus[tr.Src], c.gpus[tr.Dst]
	pair := [2]int{src, dst}
	g.inFlight[pair] = true
	err := g.net.Send(src, dst, tr.Bytes, func(m *fabric.Message) {
		g.out.Transfers = append(g.out.Transfers, timeline.Transfer{
			Path: m.Path, Src: src, Dst: dst, Bytes: tr.Bytes, Collective: int(ref.coll),
			Step: tr.Step, Chunk: tr.Chunk, Phase: tr.Phase, Start: m.Start, End: m.End, Rates: m.Rates,
		})
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

func (g *graph) finish(id int32) {
	for _, n := range g.ops[id].next {
		g.ops[n].waiting--
		if g.ops[n].waiting == 0 {
			g.start(n)
		}
	}
}

// collectives records each collective's summary from its transfers.
func (g *graph) collectives() {
	for i, c := range g.colls {
		tc := timeline.Collective{Name: c.sch.Op, Algorithm: c.sch.Algorithm, Ranks: c.sch.Ranks,
			Bytes: c.sch.Bytes, GPUs: append([]int(nil), c.gpus...), Start: -1}
		for _, tr := range g.out.Transfers {
			if tr.Collective != i {
				continue
			}
			if tc.Start < 0 || tr.Start < tc.Start {
				tc.Start = tr.Start
			}
			tc.End = max(tc.End, tr.End)
		}
		tc.Start = max(tc.Start, 0)
		g.out.Collectives = append(g.out.Collectives, tc)
	}
}
