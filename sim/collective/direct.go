package collective

import "paraplay/sim/units"

// DirectAllReduce is the all-reduce that sends every piece straight to
// where it is summed and straight back: a direct reduce-scatter, in which
// rank i sends chunk j of its buffer (ChunkBytes of n) to rank j, which
// adds it, then a direct all-gather, in which rank j sends its summed
// chunk to every other rank. Rank i addresses its peers in the order
// i+1, i+2, … (mod n), the pairwise order of AllToAllPairwise, so that on
// one port per rank no two messages of a round meet at a receiver. It is
// the algorithm a fully connected mesh with no switch is built for
// (AMD's 8-GPU MI300X platform; RCCL's direct kernels): each rank's n−1
// messages of a phase leave at once, one on each cable.
//
// On the execution model of Time (one port per rank, one message at a
// time) the n−1 messages of a phase queue one behind another:
//
//	2(n−1)·(α + S/n·β)   — the ring's time, every term equal
//
// On a mesh, where each cable is a port of its own (DirectMeshTime), a
// phase costs one message: 2·(α + S/n·β). Both derived here, from the
// schedule; the literature's direct algorithms (e.g. Thakur,
// Rabenseifner & Gropp 2005 on the pairwise exchange) give the switch case.
func DirectAllReduce(n int, s units.Bytes) Schedule { return Direct(OpAllReduce, n, s) }

// Direct is DirectAllReduce's phases as their own collectives: op
// reduce_scatter runs the first alone (each rank ends with its summed
// chunk), all_gather the second (rank j starts with chunk j of the S
// gathered bytes), all_reduce both. Each phase costs (n−1)·(α + S/n·β)
// on one port per rank and α + S/n·β on a mesh.
func Direct(op Op, n int, s units.Bytes) Schedule {
	sch := Schedule{Op: op, Algorithm: "direct", Ranks: n, Bytes: s}
	if n < 2 || s <= 0 {
		return sch
	}
	rs, ag := op != OpAllGather, op != OpReduceScatter
	into := make([][]int, n) // into[j]: the reduce-scatter transfers rank j sums
	phase := func(step0 int, reduce bool) {
		for k := 1; k < n; k++ {
			for i := range n {
				j, chunk, phase, after := (i+k)%n, (i+k)%n, PhaseReduceScatter, []int(nil)
				if !reduce {
					chunk, phase, after = i, PhaseAllGather, into[i]
				}
				t := Transfer{Step: step0 + k - 1, Src: i, Dst: j, Chunk: chunk, Offset: ChunkOffset(s, n, chunk),
					Bytes: ChunkBytes(s, n, chunk), Phase: phase, Reduce: reduce}
				if t.Bytes > 0 && reduce {
					into[j] = append(into[j], len(sch.Transfers))
				}
				if t.Bytes > 0 {
					sch.Add(t, after, nil)
				}
			}
		}
		sch.Steps = step0 + n - 1
	}
	if rs {
		phase(0, true)
	}
	if ag {
		phase(sch.Steps, false)
	}
	return sch
}

// DirectMeshTime is DirectAllReduce's time on n ranks joined pairwise by
// cables of latency l.Alpha and bandwidth l.Bandwidth per direction, each
// cable its own port (topo.Mesh): a phase's n−1 messages of S/n travel
// at once, one per cable, so
//
//	2·(α + S/n·β)
//
// and nccl-tests' bus bandwidth is 2(n−1)/n · S / that = (n−1)·B at
// large S: every cable of every GPU busy, where a single ring uses one.
//
// reduce_scatter and all_gather (Direct) are one phase: half of it.
func DirectMeshTime(n int, s units.Bytes, l Link) float64 {
	return DirectMeshPhases(OpAllReduce, n, s, l)
}

// DirectMeshPhases is Direct(op)'s time on a mesh: one or two phases of
// α + S/n·β.
func DirectMeshPhases(op Op, n int, s units.Bytes, l Link) float64 {
	if n < 2 {
		return 0
	}
	phases := 2.0
	if op == OpReduceScatter || op == OpAllGather {
		phases = 1
	}
	return phases * (l.Alpha.Seconds() + float64(s)/float64(n)/float64(l.Bandwidth))
}
