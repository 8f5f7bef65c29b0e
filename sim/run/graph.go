package run

import (
	"slices"

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
	kind    opKind
	item    int32 // index into the slice of its kind: spans, xfers, groups or analytics
	waiting int32 // unfinished predecessors
	slot    int32 // transfer: its index in the timeline's Transfers, once sent
}

// opKind says what an op does.
type opKind uint8

const (
	opCompute  opKind = iota // a span on one GPU's compute stream
	opTransfer               // one message of a placed schedule
	opGroup                  // a span on several GPUs' compute streams at once (groups.go)
	opAnalytic               // a collective priced by its closed form (groups.go)
	opJoin                   // nothing: waits for its dependencies
)

// xferRef names one transfer of one of the graph's collectives.
type xferRef struct {
	coll, index int32
}

// placedSchedule is a collective schedule with its ranks mapped to GPUs.
type placedSchedule struct {
	sch  collective.Schedule
	gpus []int // gpus[rank] is the GPU id of rank
	// tl is the index of its record in the timeline's Collectives, or −1
	// for point-to-point messages, which belong to no collective.
	tl int
}

// graph executes ops once their predecessors finish. A GPU's compute
// stream runs one span at a time in the order they became ready; messages
// share the links they cross (see package fabric).
type graph struct {
	ops []op
	// preds[id] lists op id's predecessors from the first indexed edges
	// (see predecessors).
	preds   [][]int
	indexed int
	spans   []timeline.Span // compute templates; End−Start is the duration
	xfers   []xferRef
	colls   []placedSchedule
	eng     *engine.Engine
	net     *fabric.Network
	gpuAt   []units.Time // when each GPU's compute stream is next free
	// The single-port model of the α–β literature (Thakur, Rabenseifner &
	// Gropp 2005): each GPU sends one message at a time and receives one at
	// a time. A ready message waits until both its sender's send port and
	// its receiver's receive port are free; waiting messages go first come,
	// first served. Messages of different GPUs still share the network's
	// links (package fabric).
	sending, receiving []bool
	bySrc, byDst       [][]int32 // waiting messages per sender / receiver, in arrival order
	started            []bool    // by op: the message has left its queues
	readySeq           []int32   // by op: order in which messages became ready
	bySeq              []int32   // op of each ready sequence number
	collected          []uint32  // by op: dispatch pass that last collected it
	pass               uint32
	touchedSrc         []int // ports whose queues may have a startable message
	touchedDst         []int
	passPending        bool
	candidates         []int32 // ready sequence numbers of this pass's candidates
	out                *timeline.Timeline
	failed             error
	// Dependency edges, gathered while adding ops and turned into a
	// compressed adjacency list (next[first[i]:first[i+1]] are the ops
	// that wait for op i) when the graph runs: one allocation instead of
	// one per op.
	edges     [][2]int32
	first     []int32
	next      []int32
	deps      []int // scratch for addSchedule
	groups    []groupOp
	analytics []analyticOp
	commAt    []units.Time // when each GPU's communication stream is next free
	// scale, when set, gives a group op's compute time when it starts
	// (GPU types, fail-slow, stragglers); nil: its nominal time.
	scale func(o *groupOp, id int32, start units.Time) units.Time
	mem   []memTrack // activation memory by GPU; nil unless tracked
	// onFinish, when set, hears of every op as it finishes, before what
	// waits for it starts; afterFinish after that. The synchronisation
	// rules of a parameter server (staleness.go) release held ops from
	// afterFinish, so that ops they release start after (in the same
	// order as) the ops the finished one released by dependency.
	onFinish, afterFinish func(id int32)
	// rates holds every arrived message's rate pieces back to back; each
	// Transfer.Rates is a window on it. One pointer-free array instead of
	// a small allocation per message keeps the garbage collector idle.
	rates []timeline.Rate
}

func newGraph(eng *engine.Engine, net *fabric.Network, gpus int, out *timeline.Timeline) *graph {
	return &graph{eng: eng, net: net, gpuAt: make([]units.Time, gpus), commAt: make([]units.Time, gpus), out: out,
		sending: make([]bool, gpus), receiving: make([]bool, gpus),
		bySrc: make([][]int32, gpus), byDst: make([][]int32, gpus)}
}

// addCompute adds a compute span of duration d (the template's Start and
// End are ignored) that waits for deps, and returns its op index.
func (g *graph) addCompute(span timeline.Span, d units.Time, deps ...int) int {
	span.Start, span.End = 0, d
	g.spans = append(g.spans, span)
	return g.add(op{kind: opCompute, item: int32(len(g.spans) - 1)}, deps)
}

// addSchedule adds a collective whose rank r runs on GPU gpus[r]. ready[r],
// if ≥ 0, is the op after which rank r may start sending. It returns the
// collective's index.
func (g *graph) addSchedule(sch collective.Schedule, gpus []int, ready []int) int {
	return g.addPlaced(sch, gpus, ready, "")
}

// addPlaced is addSchedule with the collective's purpose ("dp", ...);
// purpose "p2p" marks point-to-point messages, which get no record.
func (g *graph) addPlaced(sch collective.Schedule, gpus []int, ready []int, purpose string) int {
	c := len(g.colls)
	tl := -1
	if purpose != "p2p" {
		tl = len(g.out.Collectives)
		g.out.Collectives = append(g.out.Collectives, timeline.Collective{Name: sch.Op, Algorithm: sch.Algorithm,
			Ranks: sch.Ranks, Bytes: sch.Bytes, GPUs: append([]int(nil), gpus...), Purpose: purpose, Start: -1})
	}
	g.colls = append(g.colls, placedSchedule{sch: sch, gpus: gpus, tl: tl})
	first := len(g.ops)
	g.xfers = append(make([]xferRef, 0, len(g.xfers)+len(sch.Transfers)), g.xfers...)
	if need := len(g.edges) + 2*len(sch.Transfers); cap(g.edges) < need {
		g.edges = append(make([][2]int32, 0, need), g.edges...)
	}
	for i, tr := range sch.Transfers {
		deps := g.deps[:0]
		if ready != nil && ready[tr.Src] >= 0 {
			deps = append(deps, ready[tr.Src])
		}
		for _, a := range tr.After {
			deps = append(deps, first+a)
		}
		g.xfers = append(g.xfers, xferRef{coll: int32(c), index: int32(i)})
		g.add(op{kind: opTransfer, item: int32(len(g.xfers) - 1)}, deps)
		g.deps = deps
	}
	return c
}

func (g *graph) add(o op, deps []int) int {
	id := len(g.ops)
	o.waiting = int32(len(deps))
	g.ops = append(g.ops, o)
	for _, d := range deps {
		g.edges = append(g.edges, [2]int32{int32(d), int32(id)})
	}
	return id
}

// link builds the compressed adjacency list from the edges (a counting
// sort, so each op's successors keep the order they were added in).
func (g *graph) link() {
	g.first = make([]int32, len(g.ops)+1)
	for _, e := range g.edges {
		g.first[e[0]+1]++
	}
	for i := 1; i < len(g.first); i++ {
		g.first[i] += g.first[i-1]
	}
	g.next = make([]int32, len(g.edges))
	fill := append([]int32(nil), g.first[:len(g.ops)]...)
	for _, e := range g.edges {
		g.next[fill[e[0]]] = e[1]
		fill[e[0]]++
	}
	g.edges = nil
}

// execute plays the graph from time 0 and returns the time the last op ended.
func (g *graph) execute() units.Time {
	g.link()
	g.started = make([]bool, len(g.ops))
	g.readySeq = make([]int32, len(g.ops))
	g.collected = make([]uint32, len(g.ops))
	g.bySeq = make([]int32, 0, len(g.ops))
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
	switch o.kind {
	case opGroup:
		g.startGroup(id)
		return
	case opAnalytic:
		g.startAnalytic(id)
		return
	case opJoin:
		g.finish(id)
		return
	case opCompute:
		span := g.spans[o.item]
		start := max(g.eng.Now(), g.gpuAt[span.GPU])
		span.Start, span.End = start, start+span.End
		g.gpuAt[span.GPU] = span.End
		g.out.Spans = append(g.out.Spans, span)
		g.eng.At(span.End, func() { g.finish(id) })
		return
	}
	src, dst := g.endpoints(o.item)
	g.readySeq[id] = int32(len(g.bySeq))
	g.bySeq = append(g.bySeq, id)
	g.bySrc[src] = append(g.bySrc[src], id)
	g.byDst[dst] = append(g.byDst[dst], id)
	g.touch(src, dst)
}

// touch notes that the queues of send port src and receive port dst may
// hold a message that can start, and asks for one dispatch pass at this
// instant, after every other event due now: messages that become ready or
// ports that free up together are then served in first-come order.
func (g *graph) touch(src, dst int) {
	g.touchedSrc = append(g.touchedSrc, src)
	g.touchedDst = append(g.touchedDst, dst)
	if !g.passPending {
		g.passPending = true
		g.eng.After(0, g.dispatch)
	}
}

// dispatch starts, in the order they became ready, every waiting message
// of the touched queues whose two ports are free.
func (g *graph) dispatch() {
	g.passPending = false
	g.pass++
	c := g.candidates[:0]
	for _, p := range g.touchedSrc {
		c = g.collect(c, &g.bySrc[p])
	}
	for _, p := range g.touchedDst {
		c = g.collect(c, &g.byDst[p])
	}
	g.touchedSrc, g.touchedDst = g.touchedSrc[:0], g.touchedDst[:0]
	slices.Sort(c)
	for _, seq := range c {
		id := g.bySeq[seq]
		if g.started[id] {
			continue
		}
		src, dst := g.endpoints(g.ops[id].item)
		if !g.sending[src] && !g.receiving[dst] {
			g.send(id)
		}
	}
	g.candidates = c
}

// collect appends the waiting messages of queue to c, first dropping those
// that already left from the queue's front.
func (g *graph) collect(c []int32, queue *[]int32) []int32 {
	q := *queue
	for len(q) > 0 && g.started[q[0]] {
		q = q[1:]
	}
	if len(q) == 0 {
		q = (*queue)[:0] // reuse the whole array, not its tail
	}
	*queue = q
	for _, id := range q {
		if !g.started[id] && g.collected[id] != g.pass {
			g.collected[id] = g.pass
			c = append(c, g.readySeq[id])
		}
	}
	return c
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
	g.sending[src], g.receiving[dst], g.started[id] = true, true, true
	// Record the transfer now, so that Transfers come out in start order
	// without a sort; Arrived fills in the rest.
	g.ops[id].slot = int32(len(g.out.Transfers))
	g.out.Transfers = append(g.out.Transfers, timeline.Transfer{
		Src: src, Dst: dst, Bytes: tr.Bytes, Collective: c.tl,
		Step: tr.Step, Chunk: tr.Chunk, Phase: tr.Phase, Start: g.eng.Now(),
	})
	if err := g.net.SendTo(src, dst, tr.Bytes, g, int(id)); err != nil && g.failed == nil {
		g.failed = err
	}
}

// release lets op id start once its other dependencies are done: it drops
// one of its waits, added by hold.
func (g *graph) release(id int) {
	g.ops[id].waiting--
	if g.ops[id].waiting == 0 {
		g.start(int32(id))
	}
}

// hold makes op id wait, besides its dependencies, for one release.
func (g *graph) hold(id int) { g.ops[id].waiting++ }

// Arrived records a message of the graph and releases what waits for it.
func (g *graph) Arrived(m *fabric.Message) {
	id := int32(m.Tag)
	x := &g.out.Transfers[g.ops[id].slot]
	first := len(g.rates)
	g.rates = append(g.rates, m.Rates...)
	x.Path, x.End, x.Rates = m.Path, m.End, g.rates[first:len(g.rates):len(g.rates)]
	g.sending[m.Src], g.receiving[m.Dst] = false, false
	g.touch(m.Src, m.Dst)
	g.finish(id)
}

func (g *graph) finish(id int32) {
	if g.onFinish != nil {
		g.onFinish(id)
	}
	for _, n := range g.next[g.first[id]:g.first[id+1]] {
		g.ops[n].waiting--
		if g.ops[n].waiting == 0 {
			g.start(n)
		}
	}
	if g.afterFinish != nil {
		g.afterFinish(id)
	}
}

// collectives completes each detailed collective's record from its
// transfers (analytic ones were recorded as they ran).
func (g *graph) collectives() {
	cs := g.out.Collectives
	for _, tr := range g.out.Transfers {
		if i := tr.Collective; i >= 0 {
			if cs[i].Start < 0 || tr.Start < cs[i].Start {
				cs[i].Start = tr.Start
			}
			cs[i].End = max(cs[i].End, tr.End)
		}
	}
	for i := range cs {
		cs[i].Start = max(cs[i].Start, 0)
		cs[i].End = max(cs[i].End, cs[i].Start)
	}
}
