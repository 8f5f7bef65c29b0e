package taskgraph

import (
	"slices"

	"paraplay/sim/engine"
	"paraplay/sim/fabric"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// op is one node of the task graph. It is kept small (a 1,024-GPU ring
// all-reduce has four million of them): what it does is looked up in the
// graph's table of its kind.
type op struct {
	kind    opKind
	item    int32 // index into the table of its kind: spans, groups or analytics; a message's transfer in its schedule
	waiting int32 // unfinished predecessors and holds
	coll    int32 // message: its placed schedule (messages.colls)
}

// opKind says what an op does.
type opKind uint8

const (
	opCompute  opKind = iota // a span on one GPU's compute stream
	opTransfer               // one message of a placed schedule
	opGroup                  // a span on several GPUs' compute streams at once
	opAnalytic               // a collective priced by its closed form, or a delay
	opJoin                   // nothing: waits for its dependencies
)

// Graph is a task graph being laid out, then played by Run. A GPU's
// compute stream runs one span at a time, in the order they became ready.
type Graph struct {
	ops       []op
	edges     adjacency
	spans     []timeline.Span // compute templates; End−Start is the duration
	groups    []Group
	analytics []analytic
	msgs      messages
	room      room // the run's tables, being made ahead (reserve_host.go)
	gpus      gpuState
	hooks     hooks
	eng       *engine.Engine
	net       *fabric.Network
	out       *timeline.Timeline
	failed    error
}

// adjacency holds the dependency edges, gathered while ops are added and
// turned into a compressed adjacency list when the graph runs
// (next[first[i]:first[i+1]] are the ops that wait for op i): one
// allocation instead of one per op.
type adjacency struct {
	edges [][2]int32
	// inner are the placed schedules whose messages' waits for each
	// other are read from the schedule (Schedule.After) instead of being
	// copied into edges: a 1,024-GPU ring has 8 million of them.
	inner       []innerEdges
	first, next []int32
	// preds[id] lists op id's predecessors from the first indexed edges
	// (see Predecessors).
	preds   [][]int
	indexed int
	scratch []int // dependencies of one message, for AddSchedule
}

// gpuState is what each GPU's streams are doing.
type gpuState struct {
	computeAt, commAt []units.Time // when each GPU's compute and communication streams are next free
	mem               []memTrack   // activation memory by GPU; nil unless tracked
}

// hooks are the strategy's callbacks into a running graph.
type hooks struct {
	// onFinish hears of every op as it finishes, before what waits for it
	// starts; afterFinish after that.
	onFinish, afterFinish func(id int)
	// scale gives a group op's compute time when it starts; nil: its
	// nominal time.
	scale func(o *Group, id int, start units.Time) units.Time
}

// New returns an empty graph on topology t whose run is recorded in a
// timeline of the given title (NewTimeline).
func New(t *topo.Topology, title string) *Graph {
	eng := &engine.Engine{}
	n := len(t.GPUs)
	return &Graph{eng: eng, net: fabric.New(t, eng), out: NewTimeline(t, title),
		gpus: gpuState{computeAt: make([]units.Time, n), commAt: make([]units.Time, n)},
		msgs: messages{ports: newPorts(gpuNodes(t), directLocals(t), linkPorts(t))}}
}

// gpuNodes lists each GPU's server.
func gpuNodes(t *topo.Topology) []int {
	node := make([]int, len(t.GPUs))
	for i, g := range t.GPUs {
		node[i] = g.Node
	}
	return node
}

// directLocals lists each GPU's index in its server when the topology
// gives every direct link a port of its own (a mesh), else nil.
func directLocals(t *topo.Topology) []int {
	if !t.DirectPorts {
		return nil
	}
	local := make([]int, len(t.GPUs))
	for i, g := range t.GPUs {
		local[i] = g.Local
	}
	return local
}

// linkPorts is the link count of a topology whose every link is a port
// of its own (topo.Topology.LinkPorts), else 0.
func linkPorts(t *topo.Topology) int {
	if !t.LinkPorts {
		return 0
	}
	return len(t.Links)
}

// Timeline is the record the graph's run fills in.
func (g *Graph) Timeline() *timeline.Timeline { return g.out }

// Now is the simulated time while the graph runs.
func (g *Graph) Now() units.Time { return g.eng.Now() }

// Len is the number of ops added so far: the id of the next one.
func (g *Graph) Len() int { return len(g.ops) }

// Reserve makes room for ops more ops, messages more messages and rates
// more rate pieces, so that a large run sizes its tables once. A large
// run's room for its records is made on another core while it is laid
// out (reserve_host.go).
func (g *Graph) Reserve(ops, messages, rates int) {
	g.ops = reserve(g.ops, ops)
	g.reserveRun(messages, rates)
}

// reserve is slices.Grow without its clearing of the new room: the
// runtime hands a large array over from the operating system already
// zero, and slices.Grow clearing it again cost a tenth of a 1,024-GPU
// ring's run (touching hundreds of megabytes before any is used).
func reserve[T any](s []T, n int) []T {
	if n <= cap(s)-len(s) {
		return s
	}
	grown := make([]T, len(s), len(s)+n)
	copy(grown, s)
	return grown
}

// OnFinish has f hear of every op as it finishes, before the ops waiting
// for it start.
func (g *Graph) OnFinish(f func(id int)) { g.hooks.onFinish = f }

// AfterFinish has f hear of every op once the ops waiting for it have
// started: ops that f releases start after them, in the order it
// releases them.
func (g *Graph) AfterFinish(f func(id int)) { g.hooks.afterFinish = f }

// Fail stops the run with err once it has been played (the first error
// wins).
func (g *Graph) Fail(err error) {
	if g.failed == nil {
		g.failed = err
	}
}

// AddCompute adds a compute span of duration d on span.GPU (the
// template's Start and End are ignored) that waits for deps, and returns
// its op id.
func (g *Graph) AddCompute(span timeline.Span, d units.Time, deps ...int) int {
	span.Start, span.End = 0, d
	g.spans = append(g.spans, span)
	return g.add(op{kind: opCompute, item: int32(len(g.spans) - 1)}, deps)
}

// AddJoin adds an op that does nothing but wait for deps.
func (g *Graph) AddJoin(deps ...int) int {
	return g.add(op{kind: opJoin}, deps)
}

func (g *Graph) add(o op, deps []int) int {
	id := len(g.ops)
	o.waiting = int32(len(deps))
	g.ops = append(g.ops, o)
	for _, d := range deps {
		g.edges.edges = append(g.edges.edges, [2]int32{int32(d), int32(id)})
	}
	return id
}

// Depend makes op id wait for op dep as well.
func (g *Graph) Depend(id, dep int) {
	g.ops[id].waiting++
	g.edges.edges = append(g.edges.edges, [2]int32{int32(dep), int32(id)})
}

// Hold makes op id wait, besides its dependencies, for one Release.
func (g *Graph) Hold(id int) { g.ops[id].waiting++ }

// Release lets op id start once its other dependencies are done: it
// drops one of the waits Hold added.
func (g *Graph) Release(id int) {
	g.ops[id].waiting--
	if g.ops[id].waiting == 0 {
		g.start(int32(id))
	}
}

// Waiting is how many dependencies and holds op id still waits for.
func (g *Graph) Waiting(id int) int { return int(g.ops[id].waiting) }

// Predecessors lists the ops op id waits for, from the dependencies added
// so far, in the order they were added. It indexes the edges as it goes
// (ZeRO-3 asks once per op and tensor-parallel rank: scanning every edge
// each time made a 64-GPU iteration take seconds).
func (g *Graph) Predecessors(id int) []int {
	a := &g.edges
	for ; a.indexed < len(a.edges); a.indexed++ {
		e := a.edges[a.indexed]
		for int(e[1]) >= len(a.preds) {
			a.preds = append(a.preds, nil)
		}
		a.preds[e[1]] = append(a.preds[e[1]], int(e[0]))
	}
	var pre []int
	if id < len(a.preds) {
		pre = slices.Clone(a.preds[id])
	}
	return g.innerPredecessors(id, pre)
}

// link builds the compressed adjacency list from the edges (a counting
// sort, so each op's successors keep the order they were added in).
func (g *Graph) link() {
	a := &g.edges
	// first[i] counts op i's successors, then (summed) is where its list
	// ends; filling each list from its end, the edges walked backwards,
	// leaves it where the list starts. AddSchedule has counted the edges
	// it keeps in the schedule.
	a.growCounts(len(g.ops) + 1)
	for _, e := range a.edges {
		a.first[e[0]]++
	}
	for i := 1; i < len(g.ops); i++ {
		a.first[i] += a.first[i-1]
	}
	total := int32(len(a.edges))
	if n := len(g.ops); n > 0 {
		total = a.first[n-1]
	}
	a.first[len(g.ops)] = total
	a.next = make([]int32, total)
	for k := len(a.edges) - 1; k >= 0; k-- {
		e := a.edges[k]
		a.first[e[0]]--
		a.next[a.first[e[0]]] = e[1]
	}
	g.fillInner() // before the other edges of the same ops: they were added first
	a.edges = nil
}

// growCounts makes first at least n long, the new counts 0.
func (a *adjacency) growCounts(n int) {
	k := len(a.first)
	switch {
	case n <= k:
	case n <= cap(a.first):
		a.first = a.first[:n]
		clear(a.first[k:])
	default:
		grown := make([]int32, n)
		copy(grown, a.first)
		a.first = grown
	}
}

// execute plays the graph from time 0 and returns the time the last op
// ended. At time 0 it starts, in order of id, every op that waits for
// nothing; each op starts once. (Until 2026-12 a dependency-free join
// started the ops it readied and the loop started them again: a ZeRO-3 run
// with one microbatch could then end before its own dependency chain.)
func (g *Graph) execute() units.Time {
	g.link()
	g.takeRoom()
	// One span per compute op, up to three (compute, blocking
	// communication and its tail) per GPU of each group op: size the list
	// once, it runs to millions on large clusters.
	spans := len(g.spans)
	for i := range g.groups {
		o := &g.groups[i]
		spans += len(o.GPUs)
		if o.Comm > 0 {
			spans += len(o.GPUs)
		}
		if o.Tail > 0 {
			spans += len(o.GPUs)
		}
	}
	g.out.Spans = slices.Grow(g.out.Spans, spans)
	g.eng.At(0, func() {
		// The ops ready at time 0, taken before any starts: a join among
		// them finishes at once and starts what it readies, which must not
		// be started a second time here.
		var ready []int32
		for i := range g.ops {
			if g.ops[i].waiting == 0 {
				ready = append(ready, int32(i))
			}
		}
		for _, id := range ready {
			g.start(id)
		}
	})
	return g.eng.Run()
}

func (g *Graph) start(id int32) {
	o := &g.ops[id]
	switch o.kind {
	case opGroup:
		g.startGroup(id)
	case opAnalytic:
		g.startAnalytic(id)
	case opJoin:
		g.finish(id)
	case opCompute:
		span := g.spans[o.item]
		start := max(g.eng.Now(), g.gpus.computeAt[span.GPU])
		span.Start, span.End = start, start+span.End
		g.gpus.computeAt[span.GPU] = span.End
		g.out.Spans = append(g.out.Spans, span)
		g.eng.At(span.End, func() { g.finish(id) })
	default:
		g.ready(id)
	}
}

func (g *Graph) finish(id int32) {
	if g.hooks.onFinish != nil {
		g.hooks.onFinish(int(id))
	}
	a := &g.edges
	for _, n := range a.next[a.first[id]:a.first[id+1]] {
		g.ops[n].waiting--
		if g.ops[n].waiting == 0 {
			g.start(n)
		}
	}
	if g.hooks.afterFinish != nil {
		g.hooks.afterFinish(int(id))
	}
}
