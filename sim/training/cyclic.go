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
// paper's claim, not simulated).

// checkCyclic checks parallel.cyclic: it staggers data-parallel replicas
// that each run the whole model, with a plain gradient sum.
func checkCyclic(s *scenario.Scenario, bad scenario.Reporter) {
	p := s.Parallel
	if !p.Cyclic {
		return
	}
	switch {
	case p.DP < 2:
		bad("parallel.cyclic", "is true with dp %d; it needs dp ≥ 2 (it staggers the data-parallel replicas)", p.DP)
	case p.PP != 1 || p.CP != 1 || p.EP != 1 || p.ZeRO != 0:
		bad("parallel.cyclic", "is true with pp %d, cp %d, ep %d, zero %d; it needs pp 1, cp 1, ep 1 and zero 0 (a staggered pipeline and ZeRO's point-to-point parameter exchange are not modelled)", p.PP, p.CP, p.EP, p.ZeRO)
	case SDPOf(s).Fraction != 0:
		bad("parallel.cyclic", "is true with parallel.sdp; allowed: one of the two")
	case imperfect(*s):
		bad("parallel.cyclic", "is true with iterations %d, %d faults, straggler.cv %v, data.seq_dist %q; allowed: one plain iteration (its steady state is that iteration's replicas run back to back)", s.Iterations, len(s.Faults), s.Straggler.CV, s.Data.SeqDist)
	case s.Compression.Ratio < 1 || s.Compression.Parameters < 1:
		bad("parallel.cyclic", "is true with compression.ratio %v and compression.parameters %v; allowed: both 1 (the relayed gradients are not compressed)", s.Compression.Ratio, s.Compression.Parameters)
	}
}

// liveReplicas lists the replicas that run the iteration.
func (tr *iteration) liveReplicas() []int {
	var live []int
	for r := 0; r < tr.plan.DP; r++ {
		if tr.alive(r) && tr.simulated(r) {
			live = append(live, r)
		}
	}
	return live
}

// cyclicGradients relays the gradients of device 0 (pp is 1) round the
// live replicas, for each tensor-parallel rank, and appends to done[r]
// replica r's own last backward: its optimizer step waits for nothing
// else.
func (tr *iteration) cyclicGradients(done [][]int) {
	live := tr.liveReplicas()
	last := tr.lastBackward(0, 0)
	k := tr.stageOfDev[0][0]
	ready := func(r int) int { return tr.ids[r][k][last.Kind][last.Microbatch] }
	for _, r := range live {
		done[r] = append(done[r], ready(r))
	}
	bytes, n := tr.gradBytes(k), len(live)
	if n < 2 || tr.fid == ideal || bytes == 0 {
		return
	}
	ch := taskgraph.Channel(-1)
	if tr.fid == detailed {
		ch = tr.g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "cyclic", Ranks: len(tr.topo.GPUs)},
			taskgraph.Identity(len(tr.topo.GPUs)), "dp")
	}
	for t := range tr.mpGroup[live[0]][0] {
		gpu := func(r int) int { return tr.mpGroup[r][0][t] }
		prev := ready(live[0])
		for i := 0; i+1 < n; i++ { // the running sum goes down the line
			prev = tr.relay(ch, gpu(live[i]), gpu(live[i+1]), bytes, "cyclic reduce", prev, ready(live[i]))
		}
		from := live[n-1]
		prev = tr.g.AddJoin(prev, ready(from))
		for _, r := range live[:n-1] { // and the total comes back round
			prev = tr.relay(ch, gpu(from), gpu(r), bytes, "cyclic broadcast", prev)
			from = r
		}
	}
}

// relay is one point-to-point message of the gradients from GPU src to
// dst after deps: on the links of channel ch (detailed) or an α–β delay
// (analytic).
func (tr *iteration) relay(ch taskgraph.Channel, src, dst int, bytes units.Bytes, phase string, deps ...int) int {
	if tr.fid == detailed {
		return tr.g.AddMessage(ch, collective.Transfer{Src: src, Dst: dst, Bytes: bytes, Phase: phase}, deps...)
	}
	a, bw, err := tr.paths.Cost(src, dst)
	if err != nil {
		tr.g.Fail(err)
		return tr.g.AddJoin(deps...)
	}
	return tr.g.AddClosedForm(taskgraph.ClosedForm{Op: collective.OpSend, Algorithm: "cyclic", Purpose: "dp", Bytes: bytes,
		GPUs: []int{src, dst}, Time: a + bw.TransferTime(bytes)}, deps...)
}

// cyclicDelay is the stagger Δ between consecutive live replicas: one
// replica's step at nominal speed (its compute and optimizer), over the
// number of live replicas.
func (tr *iteration) cyclicDelay() units.Time {
	live := tr.liveReplicas()
	return (tr.work[live[0]] + tr.optimizerTime(0)) / units.Time(len(live))
}

// stagger holds the i-th live replica's first op until i·Δ.
func (tr *iteration) stagger() {
	delta := tr.cyclicDelay()
	o := tr.sch.Order[0][0]
	k := tr.stageOfDev[0][o.Chunk]
	for i, r := range tr.liveReplicas() {
		if i > 0 {
			tr.g.Depend(tr.firsts[r][k][o.Kind][o.Microbatch], tr.g.AddDelay(units.Time(i)*delta))
		}
	}
}

// cyclicStep is the steady state's step: the longest any live replica
// takes from its first span to its last (its optimizer's end).
func (tr *iteration) cyclicStep(tl *timeline.Timeline) units.Time {
	replica := make(map[int]int, len(tr.topo.GPUs))
	for _, r := range tr.liveReplicas() {
		for _, g := range tr.mpGroup[r][0] {
			replica[g] = r
		}
	}
	first, last := map[int]units.Time{}, map[int]units.Time{}
	for _, sp := range tl.Spans {
		r, ok := replica[sp.GPU]
		if !ok {
			continue
		}
		if f, seen := first[r]; !seen || sp.Start < f {
			first[r] = sp.Start
		}
		last[r] = max(last[r], sp.End)
	}
	var step units.Time
	for r, f := range first {
		step = max(step, last[r]-f)
	}
	return step
}
