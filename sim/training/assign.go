package training

import (
	"paraplay/sim/balance"
	"paraplay/sim/units"
)

// assignSequences deals the step's sequences by predicted cost when
// data.assign is balanced, as Hydraulis's two-stage data assignment does
// (Li et al. 2024, arXiv 2412.07894): first to the live replicas, then each
// replica's to its microbatches, each stage by the greedy
// longest-processing-time rule (package balance; Graham 1969's
// 4/3 − 1/(3m) bound). The items are the step's drawn buckets: a bucket is
// micro_batch_size sequences of one drawn length, as a length-bucketing
// loader yields them, so the balanced batch holds the same sequences as the
// random one. A bucket's predicted cost is what the simulator will charge
// for it on the reference GPU: its compute and blocking communication
// summed over the model stages (costs.atLength). A microbatch may receive
// several buckets, or none when its replica drew a few long ones; message
// sizes and activation memory stay those of one bucket of the nominal
// length, as for every variable-length run.
func (tr *iteration) assignSequences() {
	it := tr.it
	if it == nil || it.lengths == nil || it.packs != nil || tr.s.Data.Assign != "balanced" || !tr.real {
		return
	}
	var live []int
	var lengths []int
	for r, ls := range it.lengths {
		if tr.alive(r) {
			live = append(live, r)
			lengths = append(lengths, ls...)
		}
	}
	if len(live) == 0 {
		return
	}
	cost := make([]float64, len(lengths))
	for i, l := range lengths {
		cost[i] = tr.predictedCost(l)
	}
	m := tr.s.Parallel.Microbatches
	byReplica := make([][]int, len(live)) // indices into lengths
	for i, b := range balance.LPT(cost, len(live)) {
		byReplica[b] = append(byReplica[b], i)
	}
	it.packs = make([][][]int, len(it.lengths))
	for b, r := range live {
		items := byReplica[b]
		w := make([]float64, len(items))
		for j, i := range items {
			w[j] = cost[i]
		}
		it.packs[r] = make([][]int, m)
		for j, mb := range balance.LPT(w, m) {
			it.packs[r][mb] = append(it.packs[r][mb], lengths[items[j]])
		}
	}
}

// predictedCost is the time a bucket of sequences of length seq costs one
// replica: its ops' compute and blocking communication over every model
// stage, on the reference GPU.
func (tr *iteration) predictedCost(seq int) float64 {
	var sum units.Time
	for k := range tr.layers {
		for _, t := range tr.atLength(k, seq) {
			sum += t
		}
	}
	return float64(sum)
}

// packedLength is the op times of model stage k for microbatch mb of
// replica r under a balanced assignment: the sum over its buckets.
func (tr *iteration) packedLength(k, r, mb int) [5]units.Time {
	var t [5]units.Time
	for _, l := range tr.it.packs[r][mb] {
		for j, u := range tr.atLength(k, l) {
			t[j] += u
		}
	}
	return t
}
