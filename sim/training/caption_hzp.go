//go:build !js

package training

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// hzpMetrics is hierarchical ZeRO's part of a caption, when the scenario
// sets parallel.zero_group (to any g, dp included) on data parallelism
// alone: GPU 0's model states beside ZeRO's formula with N_d = g, and the
// bytes the simulated messages sent between servers beside CrossBytes
// (detailed fidelity, where every message is simulated).
func hzpMetrics(s scenario.Scenario, tl *timeline.Timeline) []strategy.Part {
	p := s.Parallel
	mdl, err := s.Model.Resolve()
	if p.ZeROGroup == 0 || p.ZeRO == 0 || err != nil || len(tl.Memory) == 0 || p.TP*p.PP*p.CP*p.EP != 1 {
		return nil
	}
	g := p.ShardGroup()
	psi := float64(workload.Params(mdl).Total())
	formula := [4]string{"", "4Ψ + 12Ψ/g", "2Ψ + 14Ψ/g", "16Ψ/g"}[p.ZeRO]
	want := [4]float64{0, 4*psi + 12*psi/float64(g), 2*psi + 14*psi/float64(g), 16 * psi / float64(g)}[p.ZeRO]
	src := "Rajbhandari et al. 2020 with N_d = g; Zhao et al. 2023 (hybrid sharding); Bai et al. 2025 (AsyncHZP)"
	mem := tl.Memory[0]
	parts := []strategy.Part{strategy.Compare(strategy.Check{Name: "hierarchical ZeRO model states", Formula: formula, Source: src, Tolerance: 1e-6},
		fmt.Sprintf("model states per GPU {}; ZeRO-%d sharded within groups of g = %d: %s = {}", p.ZeRO, g, formula),
		float64(mem.Parameters+mem.Gradients+mem.OptimizerStates), want, strategy.GiB)}
	cross, err := CrossBytes(p, psi, s.PerNode())
	if tl.Transfers.Len() == 0 || err != nil {
		return parts
	}
	var sent float64
	for i := range tl.Transfers.Len() {
		if x := tl.Transfers.At(i); tl.GPUs[x.Src].Node != tl.GPUs[x.Dst].Node {
			sent += float64(x.Bytes)
		}
	}
	return append(parts, strategy.Compare(strategy.Check{Name: "hierarchical ZeRO cross-server bytes", Formula: "ring collectives' c(k−1)S/k (hzp.go)", Source: src, Tolerance: 1e-6},
		"bytes sent between servers per iteration {}; closed form {}", sent, cross, strategy.Size))
}

// ringCross is the bytes a ring collective op of bytes over k ranks on c
// servers (each server's ranks adjacent on the ring) sends between
// servers: c(k−1)S/k for a reduce-scatter or an all-gather, twice that
// for an all-reduce, 0 on one server (see the derivation above).
func ringCross(op collective.Op, k, c int, bytes float64) float64 {
	if c < 2 || k < 2 {
		return 0
	}
	x := float64(c) * float64(k-1) * bytes / float64(k)
	if op == collective.OpAllReduce {
		x *= 2
	}
	return x
}

// CrossBytes is the closed form of the bytes a training iteration of a
// ZeRO plan with tp = pp = cp = 1 sends between servers (see the
// derivation above), for params parameters in bf16 on a cluster of
// perNode GPUs a server; an error names what it does not cover.
func CrossBytes(p scenario.Parallel, params float64, perNode int) (float64, error) {
	g, s := p.ShardGroup(), 2*params
	whole := func(n int) bool { return n%perNode == 0 || perNode%n == 0 }
	if p.TP*p.PP*p.CP*p.EP != 1 || p.ZeRO < 1 || perNode < 1 || g < 1 || p.DP%g != 0 || !whole(p.DP) || !whole(g) {
		return 0, fmt.Errorf("the closed form covers ZeRO on data parallelism alone (tp, pp, cp, ep 1) whose groups are whole servers or divide one")
	}
	R := p.DP / g
	servers := func(k, span int) int { return max(1, k*span/perNode) } // k ranks span apart
	gathers := 1                                                       // ZeRO-1/2: one after the step
	if p.ZeRO == 3 {
		gathers = 2*p.Microbatches - 1
	}
	in := servers(g, 1)
	x := float64(R) * float64(gathers+1) * ringCross(collective.OpAllGather, g, in, s)
	across := R // one rank of each group, g apart
	if g < perNode {
		across = servers(R, g)
	}
	return x + float64(g)*ringCross(collective.OpAllReduce, R, across, s/float64(g)), nil
}
