package fabric

import (
	"paraplay/sim/engine"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Message is one GPU-to-GPU transfer and, once it has arrived, its record.
type Message struct {
	// Src and Dst are GPU ids.
	Src, Dst int
	// Bytes is the size.
	Bytes units.Bytes
	// Path is the link ids crossed, from Src to Dst.
	Path []int
	// Start is when it was sent; End when its last byte arrived.
	Start, End units.Time
	// Rates is its sending rate over time (see timeline.Transfer.Rates).
	Rates []timeline.Rate

	remaining float64 // bytes still to send
	rate      float64 // current rate, bytes per second
	frozen    bool    // scratch for progressive filling
	done      func(*Message)
}

// Network carries messages over a topology, driven by an engine.
type Network struct {
	topo    *topo.Topology
	router  *topo.Router
	eng     *engine.Engine
	active  []*Message // flows past their latency, in activation order
	last    units.Time // when the active flows' progress was last brought up to date
	pending bool       // a rate recomputation is scheduled for this instant
	version uint64     // invalidates stale completion events

	// scratch for progressive filling, indexed by link id
	residual []float64
	count    []int
	touched  []int
}

// New returns a network on t whose events run on eng.
func New(t *topo.Topology, eng *engine.Engine) *Network {
	return &Network{
		topo: t, router: topo.NewRouter(t), eng: eng,
		residual: make([]float64, len(t.Links)), count: make([]int, len(t.Links)),
	}
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
func (n *Network) Route(src, dst int) ([]int, error) { return n.router.Route(src, dst) }

// Send starts a message of b bytes from GPU src to GPU dst now; done is
// called at the instant its last byte arrives.
func (n *Network) Send(src, dst int, b units.Bytes, done func(*Message)) error {
	path, err := n.router.Route(src, dst)
	if err != nil {
		return err
	}
	m := &Message{Src: src, Dst: dst, Bytes: b, Path: path, Start: n.eng.Now(), remaining: float64(b), done: done}
	var lat units.Time
	for _, id := range path {
		lat += n.topo.Links[id].Latency
	}
	n.eng.After(lat, func() { n.activate(m) })
	return nil
}

func (n *Network) activate(m *Message) {
	n.advance()
	n.active = append(n.active, m)
	n.schedule()
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

// advance brings every active flow's remaining bytes up to now.
func (n *Network) advance() {
	now := n.eng.Now()
	if now == n.last {
		return
	}
	dt := (now - n.last).Seconds()
	for _, m := range n.active {
		m.remaining -= m.rate * dt
	}
	n.last = now
}

func (n *Network) recompute() {
	n.pending = false
	n.advance()
	now := n.eng.Now()
	n.share()
	next := units.Time(-1)
	for _, m := range n.active {
		if len(m.Rates) == 0 || m.Rates[len(m.Rates)-1].BytesPerSecond != m.rate {
			m.Rates = append(m.Rates, timeline.Rate{At: now, BytesPerSecond: m.rate})
		}
		if eta := n.eta(m); next < 0 || eta < next {
			next = eta
		}
	}
	if next < 0 {
		return
	}
	n.version++
	v := n.version
	n.eng.At(next, func() {
		if v == n.version {
			n.complete()
		}
	})
}

// eta is when m finishes at its current rate.
func (n *Network) eta(m *Message) units.Time {
	if m.remaining <= 0 {
		return n.eng.Now()
	}
	if m.rate <= 0 {
		return units.MaxTime
	}
	return n.last + units.Round(m.remaining/m.rate)
}

// complete retires every flow due now and reshares the links.
func (n *Network) complete() {
	n.advance()
	now := n.eng.Now()
	var finished []*Message
	kept := n.active[:0]
	for _, m := range n.active {
		if n.eta(m) <= now {
			m.remaining, m.End = 0, now
			finished = append(finished, m)
		} else {
			kept = append(kept, m)
		}
	}
	for i := len(kept); i < len(n.active); i++ {
		n.active[i] = nil
	}
	n.active = kept
	n.schedule()
	for _, m := range finished {
		m.rate = 0
		if m.done != nil {
			m.done(m)
		}
	}
}

// share sets every active flow's rate by progressive filling (max-min
// fairness): repeatedly find the links whose remaining capacity per
// unfrozen flow is smallest, give their flows that share, and take it off
// every link those flows cross.
func (n *Network) share() {
	n.touched = n.touched[:0]
	for _, m := range n.active {
		m.frozen = false
		for _, id := range m.Path {
			if n.count[id] == 0 {
				n.touched = append(n.touched, id)
				n.residual[id] = float64(n.topo.Links[id].Bandwidth)
			}
			n.count[id]++
		}
	}
	left := len(n.active)
	for left > 0 {
		best := -1.0
		for _, id := range n.touched {
			if n.count[id] > 0 {
				if s := max(0, n.residual[id]/float64(n.count[id])); best < 0 || s < best {
					best = s
				}
			}
		}
		for _, m := range n.active {
			if m.frozen || !n.bottleneckAt(m, best) {
				continue
			}
			m.frozen, m.rate = true, best
			left--
			for _, id := range m.Path {
				n.residual[id] -= best
				n.count[id]--
			}
		}
	}
	for _, id := range n.touched {
		n.count[id] = 0
	}
}

// bottleneckAt reports whether one of m's links offers exactly share per
// unfrozen flow, i.e. m is limited by that link.
func (n *Network) bottleneckAt(m *Message, share float64) bool {
	for _, id := range m.Path {
		if n.count[id] > 0 && max(0, n.residual[id]/float64(n.count[id])) <= share {
			return true
		}
	}
	return false
}
