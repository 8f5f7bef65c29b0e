package fabric

import (
	"paraplay/sim/engine"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Message is one GPU-to-GPU transfer and, once it has arrived, its record.
// It fits two cache lines, 128 bytes (a 1,024-GPU ring sends 4 million
// and recycles a few thousand): its path is the network's table entry of
// its route (PathOf), and its End, until it arrives, is when its latest
// completion event fires.
type Message struct {
	// Src and Dst are GPU ids.
	Src, Dst int32
	// Route numbers the path among the network's routes, from 0 in the
	// order they were first used: messages on the same path share it.
	Route  int32
	frozen bool  // scratch for progressive filling
	state  uint8 // latent, active or arrived
	// recycle says the network may reuse m once its receiver has been
	// told.
	recycle bool
	// stale says an event of m may still be due after its completion (a
	// completion re-armed earlier, or one left behind by a stall): m is
	// then never reused, for that event would fire on its next life.
	stale bool
	// Bytes is the size.
	Bytes units.Bytes
	// Start is when it was sent; End when its last byte arrived (before
	// that, when its latest completion event fires, or −1 while it is
	// stalled: a stale event is told apart by it).
	Start, End units.Time
	// Rates is its sending rate over time (see timeline.Transfer.Rates).
	Rates []timeline.Rate

	remaining float64    // bytes still to send at time since
	since     units.Time // when remaining was last brought up to date
	rate      float64    // current rate, bytes per second
	mark      uint64     // scratch: visited in the current recomputation
	net       *Network
	to        Receiver
	// Tag is the sender's own label for the message, handed back on arrival.
	Tag int
}

// PathOf is the link ids m crosses, from Src to Dst. It is shared between
// messages on the same route: read it, never change it. (A function, not
// a method: the browser build keeps every exported method of a type that
// becomes an interface, as a Message does, since reflection's
// MethodByName is linked in.)
func PathOf(m *Message) []int { return m.net.paths[m.Route] }

// Message states.
const (
	latent  = iota // paying its path latency
	active         // streaming bytes
	arrived        // done
)

// Receiver is told when a message has arrived. An interface rather than a
// callback, so that sending costs no closure allocation.
type Receiver interface {
	// Arrived is called at the instant the last byte of m arrives.
	Arrived(m *Message)
}

// ReceiverFunc adapts a function to Receiver.
type ReceiverFunc func(*Message)

// Arrived calls f(m).
func (f ReceiverFunc) Arrived(m *Message) { f(m) }

// Fire is the message's engine event: the end of its latency, or its
// completion. Events made stale by a later rate change are ignored.
func (m *Message) Fire() {
	n := m.net
	switch {
	case m.state == latent:
		n.activate(m)
	case m.state == active && m.End == n.eng.Now():
		n.complete(m)
	default:
		n.eng.Idle() // made stale by a later rate change
	}
}

// Network carries messages over a topology, driven by an engine.
type Network struct {
	topo   *topo.Topology
	router *topo.Router
	routes map[[2]int]route // cached paths, shared by messages
	paths  [][]int          // paths[k] is route k's path (PathOf)
	recent [][2]recentRoute // by source GPU: its last two routes, checked before the map
	eng    *engine.Engine
	onLink [][]*Message // onLink[id] lists the active flows crossing link id (past their latency)
	// dirty lists the links whose set of flows changed since the last
	// recomputation, in order; an entry −1−k stands for the links of
	// fresh[k], a flow that found all of its links empty and not yet in
	// the list (alone), which the recomputation then settles without
	// walking them.
	dirty   []int
	fresh   []*Message
	dirtied []uint64   // by link: the recomputation (pass) whose list holds it
	pending bool       // a recomputation is scheduled for this instant
	free    []*Message // arrived messages nobody holds, for reuse
	pass    uint64     // recomputation counter, for Message.mark

	// scratch for progressive filling, indexed by link id
	bandwidth []float64 // each link's, in bytes per second
	residual  []float64
	count     []int
	linkMark  []uint64
	component []*Message
	links     []int
}

// New returns a network on t whose events run on eng.
func New(t *topo.Topology, eng *engine.Engine) *Network {
	n := len(t.Links)
	net := &Network{
		topo: t, router: topo.NewRouter(t), routes: map[[2]int]route{}, recent: make([][2]recentRoute, len(t.GPUs)), eng: eng,
		onLink: make([][]*Message, n), residual: make([]float64, n), count: make([]int, n), linkMark: make([]uint64, n),
		bandwidth: make([]float64, n), dirtied: make([]uint64, n),
	}
	for i, l := range t.Links {
		net.bandwidth[i] = float64(l.Bandwidth)
	}
	return net
}

// Cost is the α–β time of one message of b bytes alone on a path: the sum
// of the path's latencies plus b over its slowest link's bandwidth
// (Hockney's model, as used by Thakur, Rabenseifner & Gropp 2005).
func Cost(t *topo.Topology, path []int, b units.Bytes) units.Time {
	var lat units.Time
	bw := units.Bandwidth(0)
	for i, id := range path {
		l := t.Links[id]
		lat += l.Latency
		if i == 0 || l.Bandwidth < bw {
			bw = l.Bandwidth
		}
	}
	if bw == 0 {
		return lat
	}
	return lat + bw.TransferTime(b)
}

// Route returns the path a message from src to dst takes.
func (n *Network) Route(src, dst int) ([]int, error) {
	r, err := n.route(src, dst)
	return r.path, err
}

// route is Route with the path's latency.
func (n *Network) route(src, dst int) (route, error) {
	var recent *[2]recentRoute
	if src >= 0 && src < len(n.recent) {
		recent = &n.recent[src]
		for i := range recent { // by index: ranging over the array copied each entry
			if r := &recent[i]; r.path != nil && r.dst == dst {
				return r.route, nil
			}
		}
	}
	key := [2]int{src, dst}
	r, ok := n.routes[key]
	if !ok {
		p, err := n.router.Route(src, dst)
		if err != nil {
			return route{}, err
		}
		r.path, r.id = p, len(n.routes)
		n.paths = append(n.paths, p)
		for _, id := range p {
			r.latency += n.topo.Links[id].Latency
		}
		n.routes[key] = r
	}
	if recent != nil && len(r.path) > 0 {
		recent[0], recent[1] = recentRoute{dst, r}, recent[0]
	}
	return r, nil
}

// route is a path, its number (Message.Route) and the sum of its links'
// latencies.
type route struct {
	path    []int
	id      int
	latency units.Time
}

// recentRoute is a path a GPU sent on lately: a GPU of a ring or a tree
// sends to one or two peers over and over, and comparing two ids is
// cheaper than hashing the pair into the map (a tenth of a 1,024-GPU
// ring's network time).
type recentRoute struct {
	dst int
	route
}

// Send starts a message of b bytes from GPU src to GPU dst now; done, if
// not nil, is called at the instant its last byte arrives.
func (n *Network) Send(src, dst int, b units.Bytes, done func(*Message)) error {
	var r Receiver
	if done != nil {
		r = ReceiverFunc(done)
	}
	_, err := n.send(src, dst, b, r, 0, false)
	return err
}

// SendTo starts a message like Send and tells r, with the message's Tag
// set to tag, when it arrives. r must not keep the *Message, nor its Rates
// slice, after Arrived returns (it may keep PathOf's path, and copy Rates): the
// network reuses both, which spares the garbage collector millions of
// objects in a large run.
func (n *Network) SendTo(src, dst int, b units.Bytes, r Receiver, tag int) error {
	_, err := n.send(src, dst, b, r, tag, r != nil)
	return err
}

func (n *Network) send(src, dst int, b units.Bytes, r Receiver, tag int, recycle bool) (*Message, error) {
	rt, err := n.route(src, dst)
	if err != nil {
		return nil, err
	}
	var m *Message
	var rates []timeline.Rate
	if k := len(n.free); k > 0 {
		m, n.free = n.free[k-1], n.free[:k-1]
		rates = m.Rates[:0]
	} else {
		m = new(Message)
	}
	*m = Message{Src: int32(src), Dst: int32(dst), Bytes: b, Route: int32(rt.id), Start: n.eng.Now(), remaining: float64(b), net: n, to: r, Tag: tag, recycle: recycle, Rates: rates}
	n.eng.Schedule(n.eng.Now()+rt.latency, m)
	return m, nil
}

func (n *Network) activate(m *Message) {
	m.state = active
	m.since = n.eng.Now()
	path := n.paths[m.Route]
	alone := n.freshAlone(path)
	for _, id := range path {
		n.onLink[id] = append(n.onLink[id], m)
	}
	if alone {
		n.dirty = append(n.dirty, -1-len(n.fresh))
		n.fresh = append(n.fresh, m)
	} else {
		for _, id := range path {
			n.markDirty(id)
		}
	}
	n.schedule()
}

// markDirty adds link id to the list of links whose flows changed.
func (n *Network) markDirty(id int) {
	n.dirty = append(n.dirty, id)
	n.dirtied[id] = n.pass + 1
}

// schedule asks for one rate recomputation at the current instant, after
// every other event already due now, so that flows starting or ending
// together are shared out once.
func (n *Network) schedule() {
	if n.pending {
		return
	}
	n.pending = true
	n.eng.After(0, n.recompute)
}

// recompute reshares the links of every flow connected (through shared
// links, transitively) to a link whose flows changed. Flows outside those
// components keep their rates: max-min fairness is decided per component.
func (n *Network) recompute() {
	n.pending = false
	n.pass++
	n.component, n.links = n.component[:0], n.links[:0]
	fresh := n.visitDirty()
	// Visit in a fixed order: links and flows are discovered in the order
	// of the dirty list and of each link's flows, both deterministic.
	for i := 0; i < len(n.links); i++ {
		if id := n.links[i]; id < 0 {
			n.component = append(n.component, n.freshFlow(id))
			continue
		}
		for _, m := range n.onLink[n.links[i]] {
			if m.mark != n.pass {
				m.mark, m.frozen = n.pass, false
				n.component = append(n.component, m)
				for _, id := range n.paths[m.Route] {
					n.visitLink(id)
				}
			}
		}
	}
	if fresh {
		n.dropFresh()
	}
	now := n.eng.Now()
	for _, m := range n.component {
		if !m.frozen { // a fresh flow, frozen by visitDirty, has sent nothing
			m.remaining -= m.rate * (now - m.since).Seconds()
			m.since = now
		}
	}
	n.share(n.component, n.links)
	for _, m := range n.component {
		if len(m.Rates) == 0 || m.Rates[len(m.Rates)-1].BytesPerSecond != m.rate {
			m.Rates = append(m.Rates, timeline.Rate{At: now, BytesPerSecond: m.rate})
			n.arm(m)
		}
	}
}

func (n *Network) visitLink(id int) {
	if n.linkMark[id] != n.pass {
		n.linkMark[id] = n.pass
		n.links = append(n.links, id)
	}
}

// arm schedules m's completion at its current rate, cancelling any earlier
// completion event.
func (n *Network) arm(m *Message) {
	var eta units.Time
	switch {
	case m.remaining <= 0:
		eta = m.since
	case m.rate <= 0:
		m.stale = m.stale || m.End > n.eng.Now()
		m.End = -1 // stalled: a later recomputation will arm it
		return
	default:
		eta = m.since + units.Round(m.remaining/m.rate)
		if eta <= m.Start {
			// A message of bytes takes time: on a path of no latency, a
			// small one on a 100 TB/s link rounded to an empty interval.
			eta = m.Start + 1
		}
	}
	m.stale = m.stale || m.End > eta
	m.End = eta
	n.eng.Schedule(eta, m)
}

// complete retires m and reshares the links it used.
func (n *Network) complete(m *Message) {
	m.remaining, m.rate, m.state = 0, 0, arrived // End is now, when it was armed
	for _, id := range n.paths[m.Route] {
		fl := n.onLink[id]
		for i, f := range fl {
			if f == m {
				if i < len(fl)-1 {
					copy(fl[i:], fl[i+1:])
				}
				fl[len(fl)-1] = nil
				n.onLink[id] = fl[:len(fl)-1]
				break
			}
		}
		if len(n.onLink[id]) > 0 { // an emptied link has no flow to reshare
			n.markDirty(id)
		}
	}
	n.schedule()
	if m.to != nil {
		m.to.Arrived(m)
		// The receiver has copied what it keeps (Path and Rates are handed
		// over, not reused); recycle the rest. Send's callers get no
		// pointer, so nobody else holds m.
		if m.recycle && !m.stale {
			m.to = nil
			n.free = append(n.free, m)
		}
	}
}

// share sets the rates of flows (which alone use links) by progressive
// filling (max-min fairness): repeatedly find the links whose remaining
// capacity per unfrozen flow is smallest, give their flows that share, and
// take it off every link those flows cross.
func (n *Network) share(flows []*Message, links []int) {
	// A flow alone on its links is frozen first: the filling would give
	// it the same rate and leave the others' unchanged. When all are
	// (the single-port model's runs), there is nothing left to fill.
	left := len(flows)
	for _, m := range flows {
		if !m.frozen { // not a fresh flow visitDirty settled
			m.frozen = n.shareAlone(m)
		}
		if m.frozen {
			left--
		}
	}
	if left == 0 {
		return
	}
	for _, id := range links {
		n.residual[id] = n.bandwidth[id]
		n.count[id] = len(n.onLink[id])
	}
	for _, m := range flows {
		if m.frozen { // its links drop out of the filling
			for _, id := range n.paths[m.Route] {
				n.count[id] = 0
			}
		}
	}
	for left > 0 {
		best := -1.0
		for _, id := range links {
			if n.count[id] > 0 {
				if s := max(0, n.residual[id]/float64(n.count[id])); best < 0 || s < best {
					best = s
				}
			}
		}
		for _, m := range flows {
			if m.frozen || !n.bottleneckAt(m, best) {
				continue
			}
			m.frozen, m.rate = true, best
			left--
			for _, id := range n.paths[m.Route] {
				n.residual[id] -= best
				n.count[id]--
			}
		}
	}
}

// shareAlone sets m's rate to its slowest link's bandwidth when it is
// alone on every link of its path (the common case under the single-port
// model), and reports whether it was. A flow alone on its links always
// ends the filling at that rate: its links' share never falls below it
// while it is unfrozen, and no other flow's freezing touches them.
func (n *Network) shareAlone(m *Message) bool {
	if len(n.paths[m.Route]) == 0 {
		return false
	}
	best := -1.0
	for _, id := range n.paths[m.Route] {
		if len(n.onLink[id]) != 1 {
			return false
		}
		if s := max(0, n.bandwidth[id]); best < 0 || s < best {
			best = s
		}
	}
	m.rate = best
	return true
}

// bottleneckAt reports whether one of m's links offers at most share per
// unfrozen flow, i.e. m is limited by that link.
func (n *Network) bottleneckAt(m *Message, share float64) bool {
	for _, id := range n.paths[m.Route] {
		if n.count[id] > 0 && max(0, n.residual[id]/float64(n.count[id])) <= share {
			return true
		}
	}
	return false
}
