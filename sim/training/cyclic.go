package training

import (
	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Cyclic data parallelism (parallel.cyclic; Fournier & Oyallon 2024,
// "Cyclic Data Parallelism for Efficient Parallelism of Deep Neural
// Networks"), as we read it: the dp replicas run the same step one after
// another with a uniform delay Δ = P/dp, P being one replica's step
// (its compute and optimizer at nominal speed), so that run back to back
// they are spread evenly over their cycle. The gradients are not summed
// by one all-reduce at the end: replica 0 sends its gradient to replica
// 1 when its backward ends, each replica adds its own and passes the sum
// on, and the last sends the total back round the ring (n−1 reduce and
// n−1 broadcast messages of the whole gradient, point to point: the same
// 2(n−1)·G bytes as a ring all-reduce, one message at a time when a
// message takes no longer than Δ, instead of n at once). Each replica
// steps its optimizer as soon as its own backward ends, with the sum that
// arrives during the step applied one step late: the paper's gradient
// delay, which this model takes as free (its effect on accuracy is the
// paper's claim, not simulated). The relay's messages go on the links in
// every fidelity: there are only 2(n−1) per tensor-parallel rank. The
// code is kept short on purpose: every line of it goes into the wasm.

// checkCyclic checks parallel.cyclic: it staggers the replicas of one
// plain iteration, each running the whole model, with a plain gradient
// sum (one message names every rule: each costs the browser's download).
func checkCyclic(s *scenario.Scenario, bad scenario.Reporter) {
	p := s.Parallel
	if p.Cyclic && (p.DP < 2 || p.PP*p.CP*p.EP*p.VirtualStages != 1 || p.ZeRO != 0 || p.Schedule == "zb-v" || p.Schedule == "dualpipev" || p.Schedule == "stp" ||
		SDPOf(s).Fraction != 0 || imperfect(*s) || s.Compression.Enabled()) {
		bad("parallel.cyclic", "is true with dp %d, pp %d, zero %d; it needs dp ≥ 2, pp, cp and ep 1, zero 0, one model chunk (not zb-v, dualpipev or virtual stages), no parallel.sdp, no compression, and one plain iteration (iterations 1, no faults, straggler or data.seq_dist)",
			p.DP, p.PP, p.ZeRO)
	}
}

// cyclicGradients staggers the replicas (replica r's first op waits r·Δ,
// Δ = cyclicDelay) and relays the gradients of device 0 (pp is 1) round
// them for each tensor-parallel rank, and appends to done[r] replica r's
// own last backward: its optimizer step waits for nothing else.
func (tr *iteration) cyclicGradients(done [][]int) {
	n, delta, o, last := tr.plan.DP, tr.cyclicDelay(), tr.sch.Order[0][0], tr.lastBackward(0, 0)
	ready := func(r int) int { return tr.ids[r][0][last.Kind][last.Microbatch] }
	for r := range n {
		done[r] = append(done[r], ready(r))
		if r > 0 {
			tr.g.Depend(tr.firsts[r][0][o.Kind][o.Microbatch], tr.g.AddDelay(units.Time(r)*delta))
		}
	}
	bytes := tr.gradBytes(0)
	if tr.fid == ideal || bytes == 0 {
		return
	}
	ch := tr.g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "cyclic", Ranks: len(tr.topo.GPUs)},
		taskgraph.Identity(len(tr.topo.GPUs)), "dp")
	for t := range tr.mpGroup[0][0] {
		// The running sum goes 0 → 1 → … → n−1, the total n−1 → 0 → … → n−2.
		prev, from := ready(0), 0
		// A replica sends once its own backward is done (long done when
		// the total passes it on).
		for i := 1; i < 2*n-1; i++ {
			to := i % n
			prev = tr.g.AddMessage(ch, collective.Transfer{Src: tr.mpGroup[from][0][t], Dst: tr.mpGroup[to][0][t], Bytes: bytes, Phase: collective.PhaseCyclic}, prev, ready(from))
			from = to
		}
	}
}

// cyclicDelay is the stagger Δ between consecutive replicas: one
// replica's step at nominal speed (its compute and optimizer) over dp.
func (tr *iteration) cyclicDelay() units.Time {
	return (tr.work[0] + tr.optimizerTime(0)) / units.Time(tr.plan.DP)
}

// cyclicStep is the steady state's step: the last replica's, from its
// start, (dp−1)·Δ, to the end of its last span, which ends the run's
// spans (every replica has the same work, and it starts last).
func (tr *iteration) cyclicStep(tl *timeline.Timeline) units.Time {
	var end units.Time
	for _, sp := range tl.Spans {
		end = max(end, sp.End)
	}
	return end - units.Time(tr.plan.DP-1)*tr.cyclicDelay()
}
