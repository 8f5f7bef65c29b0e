package opgraph

import (
	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// Per-stage data parallelism, after DAPPLE (Fan et al. 2021, "DAPPLE: A
// Pipelined Data Parallel Approach for Training Large Models", PPoPP):
// a pipeline whose stages need not have the same number of replicas.
// Stage i runs on d_i GPUs, which take its microbatches in turn and
// all-reduce its gradient at the end; the planner (PlanStages) picks the
// stage count and the d_i, cutting the graph so that each stage's forward
// time is proportional to its d_i.
//
// Not modelled: DAPPLE's early-backward schedule (this pipeline runs
// GPipe's order), its placement policies across servers (one server
// here), and its profiler.

// replicas is the GPUs of each stage: Run.StageReplicas, or one per GPU.
func (r Run) replicas() []int {
	if len(r.StageReplicas) > 0 {
		return r.StageReplicas
	}
	reps := make([]int, r.GPUs)
	for i := range reps {
		reps[i] = 1
	}
	return reps
}

// stagesWeighted cuts g into len(reps) contiguous stages at its cut
// points, stage i ending at the first cut at or past the share
// (d_0 + … + d_i)/Σd of the forward time, and returns each stage's last
// operator.
func stagesWeighted(g Graph, reps []int, b int, gpu hw.GPU) []int {
	var total units.Time
	for _, o := range g.Ops {
		total += forwardTime(o, b, gpu)
	}
	all := 0
	for _, d := range reps {
		all += d
	}
	n := len(reps)
	var ends []int
	var sum units.Time
	cs := cuts(g)
	ci, share := 0, 0
	for i, o := range g.Ops {
		sum += forwardTime(o, b, gpu)
		for ci < len(cs) && cs[ci] < i {
			ci++
		}
		k := len(ends)
		if k >= n-1 || ci >= len(cs) || cs[ci] != i {
			continue
		}
		share = 0
		for _, d := range reps[:k+1] {
			share += d
		}
		if float64(sum) >= float64(total)*float64(share)/float64(all) || len(cs)-ci <= n-1-k {
			ends = append(ends, i)
		}
	}
	return append(ends, len(g.Ops)-1)
}

// stageAllReduce sums stage i's bf16 gradient over its d replicas (GPUs
// from, …) once each is done (last): a ring all-reduce, every message on
// the links (collective.Ring), whose time the tests hold to the ring's
// closed form 2(d−1)·α + 2(d−1)/d · S/B.
func stageAllReduce(h *builder, g Graph, ends []int, i, from, d int, last []int) {
	lo := 0
	if i > 0 {
		lo = ends[i-1] + 1
	}
	var params int64
	for _, o := range g.Ops[lo : ends[i]+1] {
		params += o.Params()
	}
	if d < 2 || params == 0 {
		return
	}
	gpus := make([]int, d)
	for k := range gpus {
		gpus[k] = from + k
	}
	h.tg.AddSchedule(collective.Ring(d, units.Bytes(2*params)), gpus, pick(last, gpus), "dp")
}

// pick is xs at the indexes idx.
func pick(xs, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = xs[i]
	}
	return out
}
