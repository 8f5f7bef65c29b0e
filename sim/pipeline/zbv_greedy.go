package pipeline

import "fmt"

// zbvGreedy builds ZB-V's per-device order the way Qi et al. 2024 find
// theirs: by list-scheduling ops of the given times on the V layout (two
// chunks per device, backward split into B and W) and recording the order.
// Whenever a device is free it runs, in priority order, a ready B (the
// critical path), a ready F if it holds fewer than limit chunk activations
// (chunk 1 first: it finishes a microbatch sooner), or a deferred W (which
// fills what would be a bubble); otherwise it waits. With equal F, B and W
// times and m ≥ 2p this gives the near-zero bubble the paper reports.
func zbvGreedy(p, m, limit int, times Times) [][]Op {
	z := newZBVList(p, m, limit, times)
	for t := int64(0); z.remaining > 0; {
		for d := 0; d < p; d++ {
			if z.busyUntil[d] <= t {
				z.pick(d, t)
			}
		}
		next := z.nextFinish(t)
		if next < 0 {
			// Nothing runs and nothing could start: the memory limit has
			// starved the pipeline. Cannot happen with limit ≥ 2p (each
			// device can always hold a full V's warm-up); fail loudly.
			panic(fmt.Sprintf("pipeline: zbvGreedy deadlocked at %d: held %v nextF %v nextB %v pendingW %d order %v", t, z.held, z.nextF, z.nextB, len(z.pendingW[0]), z.order))
		}
		t = next
	}
	return z.order
}

// zbvNever marks an op that has not run in zbvList.doneAt.
const zbvNever = -1

// stageOp is an op's model stage k (0..2p−1) and microbatch.
type stageOp struct{ k, mb int }

// zbvList is the list scheduler's state: what has run and when, and per
// device what it holds and which op of each chunk comes next.
type zbvList struct {
	p, m, limit int
	cost        [3]int64
	// doneAt[kind][k][mb] is when the op finishes, or zbvNever.
	doneAt    [3][][]int64
	order     [][]Op
	busyUntil []int64
	held      []int // chunk activations held: F run, B not yet
	pendingW  [][]stageOp
	// Each chunk runs its F's, and its B's, in microbatch order, so only
	// the next one of each can be ready: picking costs O(1).
	nextF, nextB [][2]int
	remaining    int
}

func newZBVList(p, m, limit int, times Times) *zbvList {
	z := &zbvList{
		p: p, m: m, limit: limit,
		cost:      [3]int64{int64(max(times.F, 1)), int64(max(times.B, 1)), int64(max(times.W, 1))},
		order:     make([][]Op, p),
		busyUntil: make([]int64, p),
		held:      make([]int, p),
		pendingW:  make([][]stageOp, p),
		nextF:     make([][2]int, p),
		nextB:     make([][2]int, p),
		remaining: 3 * 2 * p * m,
	}
	for kind := range z.doneAt {
		z.doneAt[kind] = make([][]int64, 2*p)
		for k := range z.doneAt[kind] {
			z.doneAt[kind][k] = make([]int64, m)
			for i := range z.doneAt[kind][k] {
				z.doneAt[kind][k][i] = zbvNever
			}
		}
	}
	return z
}

// chunk is the chunk of model stage k on its device: the V runs stages
// 0..p−1 down the devices on chunk 0 and p..2p−1 back up on chunk 1.
func (z *zbvList) chunk(k int) int {
	if k < z.p {
		return 0
	}
	return 1
}

// ready reports whether op (kind, k, mb) has not run and its dependencies
// finished by t.
func (z *zbvList) ready(kind Kind, k, mb int, t int64) bool {
	if z.doneAt[kind][k][mb] != zbvNever {
		return false
	}
	done := func(kd Kind, kk int) bool { d := z.doneAt[kd][kk][mb]; return d != zbvNever && d <= t }
	switch kind {
	case F:
		return k == 0 || done(F, k-1)
	case B:
		if !done(F, k) {
			return false
		}
		return k == 2*z.p-1 || done(B, k+1)
	default:
		return done(B, k)
	}
}

// run starts op (kind, k, mb) on device d at t.
func (z *zbvList) run(d int, kind Kind, k, mb int, t int64) {
	z.order[d] = append(z.order[d], Op{Kind: kind, Microbatch: mb, Chunk: z.chunk(k)})
	z.doneAt[kind][k][mb] = t + z.cost[kind]
	z.busyUntil[d] = t + z.cost[kind]
	z.remaining--
}

// pick starts the free device d's next op at t, by the priorities of
// zbvGreedy, or leaves it idle when none is ready.
func (z *zbvList) pick(d int, t int64) {
	stagesOf := [2]int{d, 2*z.p - 1 - d}
	// 1. A ready B, chunk 1 first.
	for _, c := range []int{1, 0} {
		k, mb := stagesOf[c], z.nextB[d][c]
		if mb < z.m && z.ready(B, k, mb, t) {
			z.run(d, B, k, mb, t)
			z.nextB[d][c]++
			z.held[d]--
			z.pendingW[d] = append(z.pendingW[d], stageOp{k, mb})
			return
		}
	}
	// 2. A ready F while memory allows, chunk 1 first. Chunk 0 leaves room
	// for one chunk-1 activation: filling the device with chunk-0 forwards
	// would block the chunk-1 forward whose backward frees memory, and
	// deadlock.
	for _, c := range []int{1, 0} {
		k, mb := stagesOf[c], z.nextF[d][c]
		room := z.limit
		if c == 0 {
			room--
		}
		if mb < z.m && z.held[d] < room && z.ready(F, k, mb, t) {
			z.run(d, F, k, mb, t)
			z.nextF[d][c]++
			z.held[d]++
			return
		}
	}
	// 3. The oldest deferred W.
	if len(z.pendingW[d]) > 0 {
		w := z.pendingW[d][0]
		z.pendingW[d] = z.pendingW[d][1:]
		z.run(d, W, w.k, w.mb, t)
	}
}

// nextFinish is the next instant after t at which a device finishes, or
// −1 when none is busy.
func (z *zbvList) nextFinish(t int64) int64 {
	next := int64(-1)
	for d := 0; d < z.p; d++ {
		if z.busyUntil[d] > t && (next < 0 || z.busyUntil[d] < next) {
			next = z.busyUntil[d]
		}
	}
	return next
}
