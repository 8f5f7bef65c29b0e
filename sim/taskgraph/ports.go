package taskgraph

import (
	"math/bits"
	"slices"
)

// ports is the single-port model of the α–β literature (Thakur,
// Rabenseifner & Gropp 2005), per network interface: each GPU sends one
// message at a time and receives one at a time into its server (NVLink,
// NVSwitch, PCIe) and, separately, through its NIC to other servers — a
// DGX-class GPU has both, and NCCL keeps both busy at once (one channel
// over NVLink while another leaves through the NIC). A ready message waits
// until both its sender's send port and its receiver's receive port are
// free; waiting messages go first come, first served. Messages of
// different ports still share the network's links (package fabric).
// Port 2g is GPU g's into its server, 2g+1 its NIC (portOf). On a
// topology with DirectPorts (a mesh) every direct link is a port of its
// own: a GPU sends to all its peers at once, one message on each link.
type ports struct {
	node               []int // node[g] is GPU g's server
	local              []int // local[g] is GPU g's index in its server, when ports are per peer
	per                int   // the most GPUs in a server, when ports are per peer; else 0
	links              int   // first port of the per-link ports (Topology.LinkPorts), or −1
	sending, receiving []bool
	// A message that becomes ready gets the next ready sequence number
	// (seq): the queues and the tables below name messages by it.
	bySrc, byDst     [][]int32 // waiting messages (seq) per sender / receiver, in arrival order
	srcPass, dstPass []uint32  // by port: the dispatch pass that last collected its queue
	bySeq            []queued  // each ready sequence number's message and ports
	// collected[seq] is the dispatch pass that last collected message
	// seq, or leftQueues once it has started: one table, so the queues'
	// scans read one array (a second one, of flags, cost a 1,024-GPU ring
	// a cache miss a message).
	collected  []uint32
	pass       uint32
	touched    touched
	candidates []int32  // ready sequence numbers of this pass's candidates
	bits       []uint64 // scratch for sortSeqs
}

// touched lists the ports whose queues may hold a message that can start:
// those a message freed, and the messages that became ready. The other
// messages of a ready one's queues need no second look: a waiting message
// always has a busy port after a pass (else the pass would have sent it),
// and a port frees only when a message arrives, which touches it.
type touched struct {
	src, dst []int
	ready    []int32
	pending  bool // a dispatch pass is scheduled for this instant
}

// newPorts makes the ports of GPUs in servers node; local is nil, or each
// GPU's index in its server for a port per peer (topo.Topology.DirectPorts);
// links is the topology's link count when every link is a port of its own
// (topo.Topology.LinkPorts), else 0.
func newPorts(node, local []int, links int) ports {
	n := 2 * len(node)
	per := 0
	for _, l := range local {
		per = max(per, l+1)
	}
	n += len(local) * per
	first := -1
	if links > 0 {
		first, n = n, n+links
	}
	return ports{node: node, local: local, per: per, links: first, sending: make([]bool, n), receiving: make([]bool, n),
		bySrc: make([][]int32, n), byDst: make([][]int32, n), srcPass: make([]uint32, n), dstPass: make([]uint32, n)}
}

// pathPorts is the send and receive port of a message on path when every
// link is a port (topo.Topology.LinkPorts): its first link's and its last.
func (p *ports) pathPorts(path []int) (src, dst int) {
	return p.links + path[0], p.links + path[len(path)-1]
}

// portOf is the port GPU g uses for a message to or from GPU peer: its
// NIC when peer sits in another server.
func (p *ports) portOf(g, peer int) int {
	if p.node[g] != p.node[peer] {
		return 2*g + 1
	}
	if p.per > 0 {
		return 2*len(p.node) + g*p.per + p.local[peer]
	}
	return 2 * g
}

// queued is a message that became ready, and its send and receive
// ports: the dispatch pass reads them rather than asking portsOf again
// (a large run's table is made on another core, reserve_host.go).
type queued struct{ id, src, dst int32 }

// leftQueues marks a started message in ports.collected; the dispatch
// passes, counted from 1, stay below it.
const leftQueues = ^uint32(0)

// size makes the per-message tables for ops ops.
func (p *ports) size(ops int) {
	p.collected = make([]uint32, ops)
	p.bySeq = make([]queued, 0, ops)
}

// queue puts message id from send port src to receive port dst in their
// queues and returns its ready sequence number.
func (p *ports) queue(id int32, src, dst int) int32 {
	seq := int32(len(p.bySeq))
	p.bySeq = append(p.bySeq, queued{id, int32(src), int32(dst)})
	p.bySrc[src] = append(p.bySrc[src], seq)
	p.byDst[dst] = append(p.byDst[dst], seq)
	return seq
}

// touch notes that the queues of send port src and receive port dst may
// hold a message that can start, and asks for one dispatch pass at this
// instant, after every other event due now: messages that become ready or
// ports that free up together are then served in first-come order.
func (g *Graph) touch(src, dst int) {
	t := &g.msgs.ports.touched
	t.src = append(t.src, src)
	t.dst = append(t.dst, dst)
	g.wantDispatch()
}

// wantDispatch asks for a dispatch pass at this instant, once.
func (g *Graph) wantDispatch() {
	if t := &g.msgs.ports.touched; !t.pending {
		t.pending = true
		g.eng.After(0, g.dispatch)
	}
}

// dispatch starts, in the order they became ready, every waiting message
// of the touched queues, and every message that became ready, whose two
// ports are free.
func (g *Graph) dispatch() {
	p := &g.msgs.ports
	p.touched.pending = false
	p.pass++
	c := p.candidates[:0]
	for _, q := range p.touched.src {
		if p.srcPass[q] != p.pass { // a port touched twice is collected once
			p.srcPass[q] = p.pass
			c = p.collect(c, &p.bySrc[q])
		}
	}
	for _, q := range p.touched.dst {
		if p.dstPass[q] != p.pass {
			p.dstPass[q] = p.pass
			c = p.collect(c, &p.byDst[q])
		}
	}
	for _, seq := range p.touched.ready {
		if k := p.collected[seq]; k != leftQueues && k != p.pass {
			p.collected[seq] = p.pass
			c = append(c, seq)
		}
	}
	p.touched.src, p.touched.dst, p.touched.ready = p.touched.src[:0], p.touched.dst[:0], p.touched.ready[:0]
	p.sortSeqs(c)
	for _, seq := range c {
		if p.collected[seq] == leftQueues {
			continue
		}
		if q := p.bySeq[seq]; !p.sending[q.src] && !p.receiving[q.dst] {
			p.sending[q.src], p.receiving[q.dst], p.collected[seq] = true, true, leftQueues
			g.send(q.id)
		}
	}
	p.candidates = c
}

// collect appends the waiting messages of queue to c, first dropping those
// that already left from the queue's front.
func (p *ports) collect(c []int32, queue *[]int32) []int32 {
	q := *queue
	k := 0
	for k < len(q) && p.collected[q[k]] == leftQueues {
		k++
	}
	if k > 0 {
		// Move what is left to the array's front, so the queue keeps all
		// of its room: as a tail it would shrink until append reallocated
		// it, once per few messages (4 million allocations in a 1,024-GPU
		// ring).
		q = q[:copy(q, q[k:])]
		*queue = q
	}
	for _, seq := range q {
		if k := p.collected[seq]; k != leftQueues && k != p.pass {
			p.collected[seq] = p.pass
			c = append(c, seq)
		}
	}
	return c
}

// sortSeqs sorts c, ready sequence numbers without repeats. A pass's
// candidates are mostly recent and close together, so when they span
// less than 16 times their number it marks them in a bitmap and reads
// them back in order (a 1,024-GPU ring sorts hundreds per pass, two
// thousand passes).
func (p *ports) sortSeqs(c []int32) {
	if len(c) < 32 {
		slices.Sort(c)
		return
	}
	lo, hi := slices.Min(c), slices.Max(c)
	if int(hi-lo) >= 16*len(c) {
		slices.Sort(c)
		return
	}
	words := int(hi-lo)/64 + 1
	p.bits = append(p.bits[:0], make([]uint64, words)...)
	for _, s := range c {
		p.bits[(s-lo)/64] |= 1 << ((s - lo) % 64)
	}
	k := 0
	for w, b := range p.bits {
		for ; b != 0; b &= b - 1 {
			c[k] = lo + int32(64*w+bits.TrailingZeros64(b))
			k++
		}
	}
}
