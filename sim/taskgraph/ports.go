package taskgraph

import "slices"

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
	sending, receiving []bool
	bySrc, byDst       [][]int32  // waiting messages per sender / receiver, in arrival order
	started            []bool     // by op: the message has left its queues
	readySeq           []int32    // by op: order in which messages became ready
	bySeq              []int32    // op of each ready sequence number
	seqPorts           [][2]int32 // send and receive port of each ready sequence number
	collected          []uint32   // by op: dispatch pass that last collected it
	pass               uint32
	touched            touched
	candidates         []int32 // ready sequence numbers of this pass's candidates
}

// touched lists the ports whose queues may hold a message that can start.
type touched struct {
	src, dst []int
	pending  bool // a dispatch pass is scheduled for this instant
}

// newPorts makes the ports of GPUs in servers node; local is nil, or each
// GPU's index in its server for a port per peer (topo.Topology.DirectPorts).
func newPorts(node, local []int) ports {
	n := 2 * len(node)
	per := 0
	for _, l := range local {
		per = max(per, l+1)
	}
	n += len(local) * per
	return ports{node: node, local: local, per: per, sending: make([]bool, n), receiving: make([]bool, n),
		bySrc: make([][]int32, n), byDst: make([][]int32, n)}
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

// size makes the per-op tables for ops ops.
func (p *ports) size(ops int) {
	p.started = make([]bool, ops)
	p.readySeq = make([]int32, ops)
	p.collected = make([]uint32, ops)
	p.bySeq = make([]int32, 0, ops)
	p.seqPorts = make([][2]int32, 0, ops)
}

// queue puts message id from send port src to receive port dst in their
// queues.
func (p *ports) queue(id int32, src, dst int) {
	p.readySeq[id] = int32(len(p.bySeq))
	p.bySeq = append(p.bySeq, id)
	p.seqPorts = append(p.seqPorts, [2]int32{int32(src), int32(dst)})
	p.bySrc[src] = append(p.bySrc[src], id)
	p.byDst[dst] = append(p.byDst[dst], id)
}

// touch notes that the queues of send port src and receive port dst may
// hold a message that can start, and asks for one dispatch pass at this
// instant, after every other event due now: messages that become ready or
// ports that free up together are then served in first-come order.
func (g *Graph) touch(src, dst int) {
	t := &g.msgs.ports.touched
	t.src = append(t.src, src)
	t.dst = append(t.dst, dst)
	if !t.pending {
		t.pending = true
		g.eng.After(0, g.dispatch)
	}
}

// dispatch starts, in the order they became ready, every waiting message
// of the touched queues whose two ports are free.
func (g *Graph) dispatch() {
	p := &g.msgs.ports
	p.touched.pending = false
	p.pass++
	c := p.candidates[:0]
	for _, q := range p.touched.src {
		c = p.collect(c, &p.bySrc[q])
	}
	for _, q := range p.touched.dst {
		c = p.collect(c, &p.byDst[q])
	}
	p.touched.src, p.touched.dst = p.touched.src[:0], p.touched.dst[:0]
	slices.Sort(c)
	for _, seq := range c {
		id := p.bySeq[seq]
		if p.started[id] {
			continue
		}
		ends := p.seqPorts[seq] // portsOf, kept when it was queued
		if !p.sending[ends[0]] && !p.receiving[ends[1]] {
			g.send(id)
		}
	}
	p.candidates = c
}

// collect appends the waiting messages of queue to c, first dropping those
// that already left from the queue's front.
func (p *ports) collect(c []int32, queue *[]int32) []int32 {
	q := *queue
	for len(q) > 0 && p.started[q[0]] {
		q = q[1:]
	}
	// Move what is left to the array's front, so the queue keeps all of its
	// room: as a tail it would shrink until append reallocated it, once
	// per few messages (4 million allocations in a 1,024-GPU ring).
	q = (*queue)[:copy(*queue, q)]
	*queue = q
	for _, id := range q {
		if !p.started[id] && p.collected[id] != p.pass {
			p.collected[id] = p.pass
			c = append(c, p.readySeq[id])
		}
	}
	return c
}
