package collective

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/units"
)

// execute runs a schedule in the execution model the closed forms assume
// and returns when the last message arrives, in seconds. Every rank hangs
// off an ideal non-blocking switch by a full-duplex port of bw bytes per
// second each way. A transfer is ready when every transfer in its After has
// arrived; it then needs its sender's outgoing and its receiver's incoming
// port, both idle, and holds them for α + bytes/bw. Ports serve one message
// at a time; whenever ports fall idle, the waiting transfers are offered
// them first come first served: each port serves its transfers in the order
// they became ready (ties by index), and a transfer waiting for one of its
// ports keeps its place in the other's queue too.
func execute(s Schedule, alpha units.Time, bw units.Bandwidth) float64 {
	return executeNodes(s, Link{alpha, bw}, Link{alpha, bw}, 0)
}

// executeNodes is execute on ranks that each have two ports when perNode
// > 0: one into their node's switch, used by messages between ranks of
// one node (rank r on node r / perNode) at the intra link's α and
// bandwidth, and a NIC on the network, used by all others at the inter
// link's — the model of TwoLevelTime.
func executeNodes(s Schedule, intra, inter Link, perNode int) float64 {
	return executePorts(s, intra, inter, perNode, false)
}

// executeMesh is executeNodes on nodes whose ranks are joined pairwise by
// cables (a mesh, MeshChannelRing's model): every cable is a port of its
// own, so a rank sends to each peer of its node at once, and its NIC is
// one more port.
func executeMesh(s Schedule, intra, inter Link, perNode int) float64 {
	return executePorts(s, intra, inter, perNode, true)
}

// executePorts is executeNodes, with a port per cable when mesh is set.
// Port 2·rank+1 is the NIC (the inter link), every other port the intra
// link.
func executePorts(s Schedule, intra, inter Link, perNode int, mesh bool) float64 {
	n := len(s.Transfers)
	ports := 2 * s.Ranks
	if mesh {
		ports += s.Ranks * max(perNode, 1)
	}
	port := func(rank, peer int) int {
		if perNode > 0 && rank/perNode != peer/perNode {
			return 2*rank + 1
		}
		if mesh && perNode > 0 {
			return 2*s.Ranks + rank*perNode + peer%perNode
		}
		return 2 * rank
	}
	waiting := make([]int, n)
	next := make([][]int, n)
	for i := range s.Transfers {
		waiting[i] = len(s.After(i))
		for _, d := range s.After(i) {
			next[d] = append(next[d], i)
		}
	}
	var queue []readyItem // ready, not started, in (at, index) order
	for i := range n {
		if waiting[i] == 0 {
			queue = append(queue, readyItem{0, i})
		}
	}
	outBusy, inBusy := make([]bool, ports), make([]bool, ports)
	running := &readyQueue{} // by arrival time
	now := 0.0
	for {
		rest := queue[:0]
		// A waiting transfer keeps its place in both ports' queues: no
		// later transfer may overtake it on either port.
		outHeld, inHeld := make([]bool, ports), make([]bool, ports)
		for _, it := range queue {
			t := s.Transfers[it.i]
			o, in := port(t.Src, t.Dst), port(t.Dst, t.Src)
			if outBusy[o] || inBusy[in] || outHeld[o] || inHeld[in] {
				outHeld[o], inHeld[in] = true, true
				rest = append(rest, it)
				continue
			}
			outBusy[o], inBusy[in] = true, true
			l := intra
			if o < 2*s.Ranks && o%2 == 1 {
				l = inter
			}
			arrive := now + l.Alpha.Seconds() + float64(t.Bytes)/float64(l.Bandwidth)
			heap.Push(running, readyItem{arrive, it.i})
			if debugExec {
				fmt.Printf("t%d %d→%d c%d ready %.4g start %.4g end %.4g\n", it.i, t.Src, t.Dst, t.Chunk, it.at, now, arrive)
			}
		}
		queue = rest
		if running.Len() == 0 {
			return now
		}
		now = (*running)[0].at
		var freed []readyItem
		for running.Len() > 0 && (*running)[0].at == now {
			done := heap.Pop(running).(readyItem)
			t := s.Transfers[done.i]
			outBusy[port(t.Src, t.Dst)], inBusy[port(t.Dst, t.Src)] = false, false
			for _, j := range next[done.i] {
				if waiting[j]--; waiting[j] == 0 {
					freed = append(freed, readyItem{now, j})
				}
			}
		}
		slices.SortFunc(freed, func(a, b readyItem) int { return a.i - b.i })
		queue = append(queue, freed...)
	}
}

// debugExec makes execute print every transfer it starts.
var debugExec bool

type readyItem struct {
	at float64
	i  int
}

// readyQueue is a min-heap by time, then index.
type readyQueue []readyItem

func (q readyQueue) Len() int { return len(q) }
func (q readyQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].i < q[j].i
}
func (q readyQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *readyQueue) Push(x any)   { *q = append(*q, x.(readyItem)) }
func (q *readyQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// grid draws a schedule as text, one row per step and one column per
// sending rank: "2→3:c1+" is rank 2 sending chunk 1 to rank 3, + when the
// receiver adds it to its own copy; "." is a rank that sends nothing.
func grid(s Schedule) string {
	cells := make([][]string, s.Steps)
	for i := range cells {
		cells[i] = make([]string, s.Ranks)
	}
	width := 1
	for _, t := range s.Transfers {
		c := fmt.Sprintf("%d→%d:c%d", t.Src, t.Dst, t.Chunk)
		if t.Reduce {
			c += "+"
		}
		if old := cells[t.Step][t.Src]; old != "" {
			c = old + "," + c
		}
		cells[t.Step][t.Src] = c
		width = max(width, len([]rune(c)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s, %d ranks, %v, %d steps\n", s.Op, s.Algorithm, s.Ranks, s.Bytes, s.Steps)
	for step, row := range cells {
		fmt.Fprintf(&b, "%3d", step)
		for _, c := range row {
			if c == "" {
				c = "."
			}
			fmt.Fprintf(&b, " %-*s", width, c)
		}
		b.WriteString("\n")
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// replay executes a schedule on symbolic buffers and checks the
// postcondition of its operation. Each rank's buffer is cut into segments at
// every boundary a transfer or a shard uses; a segment holds counts[k], how
// many times rank k's contribution has been added into it. A transfer
// carries its sender's segments as they were at the start of its step;
// the receiver adds them (Reduce) or replaces its own (store).
//
// It also checks the dependencies: a transfer must list (transitively) in
// After every transfer that wrote the data it sends, so that no execution
// order can send stale data; and a rank may only send data it holds.
func replay(s Schedule) error {
	rp := newReplayer(s)
	order := make([]int, len(s.Transfers))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return s.Transfers[a].Step - s.Transfers[b].Step })
	for lo := 0; lo < len(order); {
		hi := lo
		for hi < len(order) && s.Transfers[order[hi]].Step == s.Transfers[order[lo]].Step {
			hi++
		}
		// Every transfer of a step reads what its sender held when the
		// step began; then all are delivered.
		var msgs []replayMsg
		for _, i := range order[lo:hi] {
			m, err := rp.send(i)
			if err != nil {
				return err
			}
			msgs = append(msgs, m)
		}
		for _, m := range msgs {
			rp.deliver(m)
		}
		lo = hi
	}
	return postcondition(s, rp.cuts, func(r, g int) []int { return rp.buf[r][g].counts }, rp.received)
}

// replayer is replay's state: the segment boundaries and, per rank and
// segment, the contribution counts and the transfers that wrote them.
type replayer struct {
	s    Schedule
	cuts []units.Bytes
	buf  [][]replayCell
	// received[dst][src] counts all-to-all bytes.
	received [][]units.Bytes
	anc      [][]bool // anc[i][j]: transfer j is (transitively) in i's After
	// forwarded[i] says an all-to-all transfer is a hop others wait for.
	forwarded []bool
}

// replayCell is one segment of one rank's buffer.
type replayCell struct {
	counts  []int
	writers []int
}

// replayMsg is transfer i's payload: the sender's counts of each segment.
type replayMsg struct {
	i      int
	counts [][]int
}

func newReplayer(s Schedule) *replayer {
	n, S := s.Ranks, s.Bytes
	cuts := []units.Bytes{0, S}
	for c := 0; c < n; c++ {
		cuts = append(cuts, ChunkOffset(S, n, c))
	}
	for i := range s.Transfers {
		for _, r := range s.Pieces(i) {
			cuts = append(cuts, r.Offset, r.Offset+r.Bytes)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	rp := &replayer{s: s, cuts: cuts, buf: make([][]replayCell, n), received: make([][]units.Bytes, n), anc: ancestors(s)}
	for r := range rp.buf {
		rp.buf[r] = make([]replayCell, len(cuts)-1)
		for g := range rp.buf[r] {
			c := make([]int, n)
			if initiallyHolds(s, r, cuts[g]) {
				c[r] = 1
			}
			if (s.Op == OpBroadcast || s.Op == OpSendRecv) && r == s.Root {
				c[r] = 1
			}
			rp.buf[r][g] = replayCell{counts: c}
		}
		rp.received[r] = make([]units.Bytes, n)
	}
	return rp
}

// seg is the index of the segment starting at off.
func (rp *replayer) seg(off units.Bytes) int { i, _ := slices.BinarySearch(rp.cuts, off); return i }

// segs lists the segments transfer i carries, in order.
func (rp *replayer) segs(i int) []int {
	var gs []int
	for _, r := range rp.s.Pieces(i) {
		for g := rp.seg(r.Offset); g < rp.seg(r.Offset+r.Bytes); g++ {
			gs = append(gs, g)
		}
	}
	return gs
}

// send reads transfer i's payload from its sender, checking that the
// sender holds the data and that i depends on every transfer that wrote it.
func (rp *replayer) send(i int) (replayMsg, error) {
	t := rp.s.Transfers[i]
	m := replayMsg{i: i}
	for _, g := range rp.segs(i) {
		c := rp.buf[t.Src][g]
		for _, w := range c.writers {
			if !rp.anc[i][w] {
				return m, fmt.Errorf("transfer %d (%d→%d step %d) sends bytes [%d,%d) written by transfer %d, which is not in its After", i, t.Src, t.Dst, t.Step, rp.cuts[g], rp.cuts[g+1], w)
			}
		}
		if sum(c.counts) == 0 {
			return m, fmt.Errorf("transfer %d (%d→%d step %d) sends bytes [%d,%d) that rank %d does not hold", i, t.Src, t.Dst, t.Step, rp.cuts[g], rp.cuts[g+1], t.Src)
		}
		m.counts = append(m.counts, slices.Clone(c.counts))
	}
	return m, nil
}

// deliver adds m's payload into (Reduce) or over its receiver's segments,
// or counts its bytes for an all-to-all.
func (rp *replayer) deliver(m replayMsg) {
	t := rp.s.Transfers[m.i]
	if rp.s.Op == OpAllToAll {
		rp.deliverAllToAll(m.i)
		return
	}
	for k, g := range rp.segs(m.i) {
		c := &rp.buf[t.Dst][g]
		if t.Reduce {
			for r, v := range m.counts[k] {
				c.counts[r] += v
			}
			c.writers = append(c.writers, m.i)
		} else {
			c.counts, c.writers = m.counts[k], []int{m.i}
		}
	}
}

// deliverAllToAll counts transfer i's all-to-all bytes at its receiver,
// per rank they came from. A transfer that another waits for is a hop of
// PXN's forwarding (AllToAllPXN): its bytes are not for its receiver,
// which sends them on; a transfer that waits for others carries their
// bytes, on behalf of their senders, and the rest as its own.
func (rp *replayer) deliverAllToAll(i int) {
	if rp.forwarded == nil {
		rp.forwarded = make([]bool, len(rp.s.Transfers))
		for k := range rp.s.Transfers {
			for _, d := range rp.s.After(k) {
				rp.forwarded[d] = true
			}
		}
	}
	if rp.forwarded[i] {
		return
	}
	t := rp.s.Transfers[i]
	own := t.Bytes
	for _, d := range rp.s.After(i) {
		h := rp.s.Transfers[d]
		rp.received[t.Dst][h.Src] += h.Bytes
		own -= h.Bytes
	}
	rp.received[t.Dst][t.Src] += own
}

// initiallyHolds reports whether rank r contributes the segment starting at
// off before the operation starts.
func initiallyHolds(s Schedule, r int, off units.Bytes) bool {
	switch s.Op {
	case OpBroadcast, OpSendRecv:
		return false
	case OpAllGather:
		return shardOf(s.Bytes, s.Ranks, off) == r
	}
	return r >= s.Servers
}

// shardOf is the chunk of an n-chunk split that contains byte off.
func shardOf(s units.Bytes, n int, off units.Bytes) int {
	c := 0
	for c+1 < n && ChunkOffset(s, n, c+1) <= off {
		c++
	}
	return c
}

// postcondition checks the result of a replay against the operation's
// definition.
func postcondition(s Schedule, cuts []units.Bytes, counts func(r, g int) []int, received [][]units.Bytes) error {
	n := s.Ranks
	want := func(r, g int, w []int) error {
		if got := counts(r, g); !slices.Equal(got, w) {
			return fmt.Errorf("%s %s: rank %d bytes [%d,%d) hold contributions %v, want %v", s.Op, s.Algorithm, r, cuts[g], cuts[g+1], got, w)
		}
		return nil
	}
	all := make([]int, n)
	for r := s.Servers; r < n; r++ {
		all[r] = 1
	}
	one := func(k int) []int { w := make([]int, n); w[k] = 1; return w }
	for r := 0; r < n; r++ {
		for g := 0; g+1 < len(cuts); g++ {
			var err error
			switch s.Op {
			case OpAllReduce:
				if r >= s.Servers {
					err = want(r, g, all)
				}
			case OpReduceScatter:
				if shardOf(s.Bytes, n, cuts[g]) == r {
					err = want(r, g, all)
				}
			case OpAllGather:
				err = want(r, g, one(shardOf(s.Bytes, n, cuts[g])))
			case OpBroadcast, OpSendRecv:
				err = want(r, g, one(s.Root))
			case OpReduce:
				if r == s.Root {
					err = want(r, g, all)
				}
			case OpBarrier:
				if slices.Contains(counts(r, g), 0) {
					err = fmt.Errorf("barrier: rank %d has heard from %v only", r, counts(r, g))
				}
			}
			if err != nil {
				return err
			}
		}
		if s.Op == OpAllToAll {
			for src := 0; src < n; src++ {
				if got, w := received[r][src], ChunkBytes(s.Bytes, n, r); src != r && got != w {
					return fmt.Errorf("all-to-all: rank %d received %d bytes from rank %d, want %d", r, got, src, w)
				}
			}
		}
	}
	return nil
}

// ancestors returns, for every transfer, the set of transfers it depends on
// directly or transitively.
func ancestors(s Schedule) [][]bool {
	anc := make([][]bool, len(s.Transfers))
	done := make([]bool, len(s.Transfers))
	var visit func(i int)
	visit = func(i int) {
		if done[i] {
			return
		}
		done[i] = true
		anc[i] = make([]bool, len(s.Transfers))
		for _, d := range s.After(i) {
			visit(int(d))
			anc[i][d] = true
			for k, v := range anc[d] {
				anc[i][k] = anc[i][k] || v
			}
		}
	}
	for i := range s.Transfers {
		visit(i)
	}
	return anc
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
