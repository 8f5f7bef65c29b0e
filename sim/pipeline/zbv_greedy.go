package pipeline

import "fmt"

// zbvGreedy builds ZB-V's per-device order the way Qi et al. 2024 find
// theirs: by list-scheduling ops of the given times on the V layout (two
// chunks per device, backward split into B and W) and recording the order. Whenever a
// device is free it runs, in priority order, a ready B (the critical path),
// a ready F if it holds fewer than limit chunk activations (chunk 1 first:
// it finishes a microbatch sooner), or a deferred W (which fills what
// would be a bubble); otherwise it waits. With equal F, B and W times and
// m ≥ 2p this gives the near-zero bubble the paper reports.
func zbvGreedy(p, m, limit int, times Times) [][]Op {
	cost := [3]int64{int64(max(times.F, 1)), int64(max(times.B, 1)), int64(max(times.W, 1))}
	stages := 2 * p
	dev := func(k int) (int, int) { // device and chunk of model stage k
		if k < p {
			return k, 0
		}
		return stages - 1 - k, 1
	}
	const never = -1
	// doneAt[kind][k][mb] is when the op finishes, or never.
	var doneAt [3][][]int64
	for kind := range doneAt {
		doneAt[kind] = make([][]int64, stages)
		for k := range doneAt[kind] {
			doneAt[kind][k] = make([]int64, m)
			for i := range doneAt[kind][k] {
				doneAt[kind][k][i] = never
			}
		}
	}
	ready := func(kind Kind, k, mb int, t int64) bool {
		if doneAt[kind][k][mb] != never {
			return false
		}
		done := func(kd Kind, kk int) bool { d := doneAt[kd][kk][mb]; return d != never && d <= t }
		switch kind {
		case F:
			return k == 0 || done(F, k-1)
		case B:
			if !done(F, k) {
				return false
			}
			return k == stages-1 || done(B, k+1)
		default:
			return done(B, k)
		}
	}
	order := make([][]Op, p)
	busyUntil := make([]int64, p)
	held := make([]int, p) // chunk activations held: F run, B not yet
	pendingW := make([][]struct{ k, mb int }, p)
	// Each chunk runs its F's, and its B's, in microbatch order, so only
	// the next one of each can be ready: picking costs O(1).
	nextF := make([][2]int, p)
	nextB := make([][2]int, p)
	remaining := 3 * stages * m
	for t := int64(0); remaining > 0; {
		for d := 0; d < p; d++ {
			if busyUntil[d] > t {
				continue
			}
			run := func(kind Kind, k, mb int) {
				_, c := dev(k)
				order[d] = append(order[d], Op{Kind: kind, Microbatch: mb, Chunk: c})
				doneAt[kind][k][mb] = t + cost[kind]
				busyUntil[d] = t + cost[kind]
				remaining--
			}
			chunksOf := [2]int{d, stages - 1 - d}
			picked := false
			// 1. A ready B, chunk 1 first.
			for _, c := range []int{1, 0} {
				k, mb := chunksOf[c], nextB[d][c]
				if !picked && mb < m && ready(B, k, mb, t) {
					run(B, k, mb)
					nextB[d][c]++
					held[d]--
					pendingW[d] = append(pendingW[d], struct{ k, mb int }{k, mb})
					picked = true
				}
			}
			// 2. A ready F while memory allows, chunk 1 first. Chunk 0
			// leaves room for one chunk-1 activation: filling the device
			// with chunk-0 forwards would block the chunk-1 forward whose
			// backward frees memory, and deadlock.
			for _, c := range []int{1, 0} {
				k, mb := chunksOf[c], nextF[d][c]
				room := limit
				if c == 0 {
					room--
				}
				if !picked && mb < m && held[d] < room && ready(F, k, mb, t) {
					run(F, k, mb)
					nextF[d][c]++
					held[d]++
					picked = true
				}
			}
			// 3. The oldest deferred W.
			if !picked && len(pendingW[d]) > 0 {
				w := pendingW[d][0]
				pendingW[d] = pendingW[d][1:]
				run(W, w.k, w.mb)
			}
		}
		// Advance to the next instant something finishes.
		next := int64(-1)
		for d := 0; d < p; d++ {
			if busyUntil[d] > t && (next < 0 || busyUntil[d] < next) {
				next = busyUntil[d]
			}
		}
		if next < 0 {
			// Nothing runs and nothing could start: the memory limit has
			// starved the pipeline. Cannot happen with limit ≥ 2p (each
			// device can always hold a full V's warm-up); fail loudly.
			panic(fmt.Sprintf("pipeline: zbvGreedy deadlocked at %d: held %v nextF %v nextB %v pendingW %d order %v", t, held, nextF, nextB, len(pendingW[0]), order))
		}
		t = next
	}
	return order
}
