package taskgraph

import (
	"paraplay/sim/collective"
	"paraplay/sim/fabric"
	"paraplay/sim/timeline"
)

// PointToPoint is the purpose of messages that belong to no collective:
// a schedule or channel placed with it gets no record in the timeline's
// Collectives.
const PointToPoint = "p2p"

// messages is the graph's placed schedules and what their messages need.
// A message's op names its schedule and its transfer there (op.coll,
// op.item): no table per message besides the op (a 1,024-GPU ring has 4
// million messages, and every byte per message is 4 MB of fresh memory).
type messages struct {
	colls []placedSchedule
	// routes[k] is the index of the network's route k in the timeline's
	// table of paths, −1 until a message took it.
	routes []int32
	ports  ports
	// concurrent: no single-port model, a ready message leaves at once.
	concurrent bool
}

// placedSchedule is a collective schedule with its ranks mapped to GPUs.
type placedSchedule struct {
	sch  collective.Schedule
	gpus []int // gpus[rank] is the GPU id of rank
	// tl is the index of its record in the timeline's Collectives, or −1
	// for point-to-point messages, which belong to no collective.
	tl int
	// item is the number of its transfer 0 in the timeline's list
	// (addSource), or −1 when its messages record what they
	// are themselves (a channel, whose transfers grow as it runs).
	item int32
	// wires are the GPUs and size of each transfer, which the run reads
	// (and the timeline keeps): nil when item is −1.
	wires []timeline.Wire
}

// Channel is a placed schedule that messages join one at a time
// (AddMessage): a pipeline's point-to-point messages, or a parameter
// server's pushes and pulls.
type Channel int32

// ConcurrentMessages lets every GPU send and receive any number of
// messages at once: a ready message leaves at once (no single-port
// model) and shares the links with the others. Split learning's clients
// and compute nodes send this way.
func (g *Graph) ConcurrentMessages() { g.msgs.concurrent = true }

// AddSchedule adds a collective whose rank r runs on GPU gpus[r]; ready[r],
// if ready is not nil and ready[r] ≥ 0, is the op after which rank r may
// start sending. Its messages are the ops first, first+1, … in the order
// of sch.Transfers. Its record in the timeline's Collectives carries
// purpose ("dp", "zero", …), unless purpose is PointToPoint.
func (g *Graph) AddSchedule(sch collective.Schedule, gpus []int, ready []int, purpose string) (first int) {
	c := g.place(sch, gpus, purpose)
	p := &g.msgs.colls[c]
	g.addSource(p)
	wires := p.wires
	first = len(g.ops)
	// The messages' waits for each other stay in the schedule when the
	// build reads them from there (placeInner); the others go into the
	// edges.
	inner := len(sch.Transfers) > 0 && g.placeInner(first, c, ready)
	if !inner || ready != nil {
		g.edges.edges = reserve(g.edges.edges, 2*len(sch.Transfers))
	}
	for i := range sch.Transfers {
		tr := &sch.Transfers[i] // not a copy: millions of records
		deps := g.edges.scratch[:0]
		if ready != nil && ready[tr.Src] >= 0 {
			deps = append(deps, ready[tr.Src])
		}
		if !inner {
			for _, a := range sch.After(i) {
				deps = append(deps, first+int(a))
			}
		}
		if wires != nil {
			wires[i] = timeline.Wire{Src: int32(gpus[tr.Src]), Dst: int32(gpus[tr.Dst]), Bytes: tr.Bytes}
		}
		id := g.add(op{kind: opTransfer, item: int32(i), coll: int32(c)}, deps)
		if inner {
			after := sch.After(i)
			g.ops[id].waiting += int32(len(after))
			g.edges.countAfter(first, after, sch.Deps)
		}
		g.edges.scratch = deps
	}
	return first
}

// AddChannel places sch, a schedule that gets its messages from
// AddMessage (its Transfers, empty, may have room for them), rank r on
// GPU gpus[r], with a record of the given purpose as AddSchedule.
func (g *Graph) AddChannel(sch collective.Schedule, gpus []int, purpose string) Channel {
	return Channel(g.place(sch, gpus, purpose))
}

func (g *Graph) place(sch collective.Schedule, gpus []int, purpose string) int {
	c := len(g.msgs.colls)
	tl := -1
	if purpose != PointToPoint {
		tl = len(g.out.Collectives)
		g.out.Collectives = append(g.out.Collectives, timeline.Collective{Name: sch.Op, Algorithm: sch.Algorithm, Channels: sch.Channels,
			Ranks: sch.Ranks, Bytes: sch.Bytes, GPUs: append([]int(nil), gpus...), Purpose: purpose, Start: -1})
	}
	g.msgs.colls = append(g.msgs.colls, placedSchedule{sch: sch, gpus: gpus, tl: tl, item: -1})
	return c
}

// AddMessage adds to channel c the message tr (its Src, Dst, Bytes, Phase
// and Step; Src and Dst are ranks of the channel) that waits for deps.
func (g *Graph) AddMessage(c Channel, tr collective.Transfer, deps ...int) int {
	p := &g.msgs.colls[c]
	p.sch.Transfers = append(p.sch.Transfers, tr)
	return g.add(op{kind: opTransfer, item: int32(len(p.sch.Transfers) - 1), coll: int32(c)}, deps)
}

// wire is message id's GPUs and size.
func (g *Graph) wire(id int32) timeline.Wire {
	o := &g.ops[id]
	c := &g.msgs.colls[o.coll]
	if c.wires != nil {
		return c.wires[o.item]
	}
	tr := &c.sch.Transfers[o.item]
	return timeline.Wire{Src: int32(c.gpus[tr.Src]), Dst: int32(c.gpus[tr.Dst]), Bytes: tr.Bytes}
}

// portsOf is the send and receive port of message id (ports.portOf), or
// its route's first and last link where every link is a port.
func (g *Graph) portsOf(id int32) (src, dst int) {
	w := g.wire(id)
	s, d := int(w.Src), int(w.Dst)
	p := &g.msgs.ports
	if p.links >= 0 {
		if path, err := g.net.Route(s, d); err == nil && len(path) > 0 {
			return p.pathPorts(path)
		}
	}
	return p.portOf(s, d), p.portOf(d, s)
}

// ready queues message id at its ports, or sends it at once when messages
// go concurrently.
func (g *Graph) ready(id int32) {
	if g.msgs.concurrent {
		g.send(id)
		return
	}
	src, dst := g.portsOf(id)
	p := &g.msgs.ports
	p.touched.ready = append(p.touched.ready, p.queue(id, src, dst))
	g.wantDispatch()
}

// send starts message id on the network.
func (g *Graph) send(id int32) {
	o := &g.ops[id]
	c := &g.msgs.colls[o.coll]
	w := g.wire(id)
	src, dst, bytes := int(w.Src), int(w.Dst), w.Bytes
	// Record the transfer now, so that Transfers come out in start order
	// without a sort; Arrived fills in the rest.
	var slot int
	if c.item >= 0 {
		slot = g.leaveItem(c.item + o.item)
	} else {
		tr := &c.sch.Transfers[o.item]
		slot = g.out.Transfers.Leave(src, dst, bytes, c.tl, tr.Step, tr.Chunk, tr.Channel, tr.Phase.String(), g.eng.Now())
	}
	if c.tl >= 0 { // the collective's record starts with its first message
		if cs := &g.out.Collectives[c.tl]; cs.Start < 0 {
			cs.Start = g.eng.Now()
		}
	}
	var err error
	if g.msgs.concurrent {
		// Sent with a callback, which the network never recycles.
		err = g.net.Send(src, dst, bytes, func(m *fabric.Message) { g.arrived(id, slot, m) })
	} else { // dispatch has taken its ports
		err = g.net.SendTo(src, dst, bytes, (*arrivals)(g), tagOf(id, slot))
	}
	if err != nil {
		g.Fail(err)
	}
}

// tagOf is the fabric's tag of message id, whose record is Transfers'
// slot: both travel with the message (untag) rather than in a table of
// millions.
func tagOf(id int32, slot int) int { return int(uint32(id)) | slot<<32 }

// untag is the message id and record slot tagOf put into tag.
func untag(tag int) (id int32, slot int) { return int32(uint32(tag)), tag >> 32 }

// arrivals is the graph as the network's fabric.Receiver of its
// single-port messages.
type arrivals Graph

// Arrived records a message of the graph and releases what waits for it.
func (a *arrivals) Arrived(m *fabric.Message) {
	g := (*Graph)(a)
	id, slot := untag(m.Tag)
	g.record(id, slot, m)
	p := &g.msgs.ports
	src, dst := p.portOf(int(m.Src), int(m.Dst)), p.portOf(int(m.Dst), int(m.Src))
	if path := fabric.PathOf(m); p.links >= 0 && len(path) > 0 {
		src, dst = p.pathPorts(path)
	}
	p.sending[src], p.receiving[dst] = false, false
	g.touch(src, dst)
	g.finish(id)
}

// arrived is Arrived for a message sent concurrently.
func (g *Graph) arrived(id int32, slot int, m *fabric.Message) {
	g.record(id, slot, m)
	g.finish(id)
}

// record completes message id's transfer record, Transfers' slot, from m.
func (g *Graph) record(id int32, slot int, m *fabric.Message) {
	// The timeline's table of paths gets each of the network's routes once.
	for len(g.msgs.routes) <= int(m.Route) {
		g.msgs.routes = append(g.msgs.routes, -1)
	}
	r := &g.msgs.routes[m.Route]
	if *r < 0 {
		*r = g.out.Transfers.Route(fabric.PathOf(m))
	}
	g.out.Transfers.Arrive(slot, *r, m.End, m.Rates)
	if c := g.msgs.colls[g.ops[id].coll].tl; c >= 0 { // and ends with its last
		cs := &g.out.Collectives[c]
		cs.End = max(cs.End, m.End)
	}
}

// completeCollectives completes each collective's record: a detailed one
// spans its messages (send and record kept its first start and last end,
// sparing a walk over millions of transfers), an analytic one was
// recorded as it ran.
func (g *Graph) completeCollectives() {
	cs := g.out.Collectives
	for i := range cs {
		cs[i].Start = max(cs[i].Start, 0)
		cs[i].End = max(cs[i].End, cs[i].Start)
	}
}

// Identity places rank r on GPU r, for n ranks.
func Identity(n int) []int {
	gpus := make([]int, n)
	for i := range gpus {
		gpus[i] = i
	}
	return gpus
}
