//go:build !js

package training

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// haptMetrics is the caption's part for HAPT's two mechanisms (hapt.go):
//
//   - parallel.partition: operators: each stage's time per microbatch
//     (F+B+W of microbatch 0 on replica 0, from the run's spans) and the
//     slowest beside the continuous balanced split's closed form
//     T* = Σ_k (t_k/μ_k) / Σ_k (1/μ_k), where μ_k is stage k's slowest GPU
//     over the reference GPU: the work in reference time spread so that
//     every stage finishes together. A split at block granularity is
//     within one block (the largest, on the slowest GPU) of it;
//   - parallel.schedule: hetero-1f1b: the extra warm-up forwards and the
//     pipeline's span from its first forward to its last backward beside
//     Σ_k F_k + Σ_k B_k + 2·Σ_j S_j + (m−1)·max_k (F_k + B_k), the 1F1B
//     makespan when every message hides under compute and only the first
//     forward's and the last backward's trips show. That holds while one
//     message takes no longer than the slowest stage's F+B; past it the
//     caption says the link sets the pace. A run with faults (a link
//     slowed by link_degrade) has no such part: the iteration rebuilt
//     here would not carry them.
func haptMetrics(s scenario.Scenario, tl *timeline.Timeline) []strategy.Part {
	p := s.Parallel
	if p.PP < 2 || (p.Partition != "operators" && (p.Schedule != "hetero-1f1b" || len(s.Faults) > 0)) {
		return nil
	}
	tr, err := newIteration(s, nil)
	if err != nil {
		return nil
	}
	tr.groups()
	if tr.price() != nil {
		return nil
	}
	f, b := stageSpanTimes(tl, tr)
	if f == nil {
		return nil
	}
	var parts []strategy.Part
	if p.Partition == "operators" {
		parts = append(parts, operatorSplitPart(tr, f, b))
	}
	if p.Schedule == "hetero-1f1b" && len(s.Faults) == 0 { // the run's faults (a slowed link) are not in tr
		parts = append(parts, heteroPart(tr, tl, f, b)...)
	}
	return parts
}

// stageSpanTimes is each stage's F and B+W time for microbatch 0 on the
// first GPU of replica 0's device for it.
func stageSpanTimes(tl *timeline.Timeline, tr *iteration) (f, b []units.Time) {
	f, b = make([]units.Time, tr.stages), make([]units.Time, tr.stages)
	for _, sp := range tl.Spans {
		if sp.Microbatch != 0 || sp.Iteration != 0 || sp.Stage >= tr.stages || sp.GPU != tr.mpGroup[0][tr.sch.Layout[sp.Stage].Device][0] {
			continue
		}
		switch sp.Kind {
		case timeline.Forward:
			f[sp.Stage] += sp.End - sp.Start
		case timeline.Backward, timeline.BackwardWeight:
			b[sp.Stage] += sp.End - sp.Start
		}
	}
	for k := range f {
		if f[k] == 0 || b[k] == 0 {
			return nil, nil
		}
	}
	return f, b
}

func operatorSplitPart(tr *iteration, f, b []units.Time) strategy.Part {
	mult := tr.stageMult()
	var work, speed, slowest, worst float64
	var times []string
	var vals []strategy.Value
	for k := range f {
		t := float64(f[k] + b[k])
		times, vals = append(times, "{}"), append(vals, strategy.Nanos(f[k]+b[k]))
		work += t / mult[k]
		speed += 1 / mult[k]
		slowest = max(slowest, t)
		worst = max(worst, mult[k])
	}
	want := work / speed
	// One block: the larger of a layer's two, its share of the reference
	// work by FLOPs (a layer's over the model's, embedding and head
	// included), on the slowest GPU.
	m, p := tr.model, tr.par
	r := workload.Recompute(p.Recompute)
	layer := workload.LayerFLOPs(m, p.MicroBatchSize, p.TP, p.CP, r).Total().Hardware()
	all := workload.StageFLOPs(m, m.Layers, true, true, p.MicroBatchSize, p.TP, p.CP, r).Hardware()
	l := workload.LayerFLOPs(m, p.MicroBatchSize, p.TP, p.CP, r)
	a := l.QKV.Plus(l.Attention).Plus(l.Projection).Hardware() / layer
	block := max(a, 1-a) * work * layer / all * worst
	part := strategy.Compare(strategy.Check{Name: "operator-level balanced split",
		Formula: "T* = Σ_k(t_k/μ_k)/Σ_k(1/μ_k)", Source: "the minimax split of divisible work over stages of speeds 1/μ_k (HAPT, Liang et al. 2025, balances operators so)",
		Tolerance: block / want},
		fmt.Sprintf("cut between attention blocks and MLPs: stage times per microbatch %s; slowest {} against the perfectly balanced T* = {}", strings.Join(times, " / ")),
		slowest, want, strategy.Nanoseconds)
	part.Values = append(vals, part.Values...)
	return part
}

func heteroPart(tr *iteration, tl *timeline.Timeline, f, b []units.Time) []strategy.Part {
	extra := tr.retime()
	var trip, send units.Time
	for d := 0; d+1 < tr.stages; d++ {
		a, bw, err := tr.paths.Cost(tr.mpGroup[0][d][0], tr.mpGroup[0][d+1][0])
		if err == nil {
			one := a + bw.TransferTime(tr.p2pBytes)
			trip, send = trip+2*one, max(send, one)
		}
	}
	var sum, cycle units.Time
	for k := range f {
		sum += f[k] + b[k]
		cycle = max(cycle, f[k]+b[k])
	}
	want := sum + trip + units.Time(tr.par.Microbatches-1)*cycle
	start, end := units.Time(-1), units.Time(0)
	for _, sp := range tl.Spans {
		if sp.Iteration != 0 || (sp.Kind != timeline.Forward && sp.Kind != timeline.Backward && sp.Kind != timeline.BackwardWeight) {
			continue
		}
		if start < 0 || sp.Start < start {
			start = sp.Start
		}
		end = max(end, sp.End)
	}
	ex := make([]string, len(extra))
	for d, e := range extra {
		ex[d] = fmt.Sprint(e)
	}
	head := strategy.Figure(fmt.Sprintf("extra warm-up forwards per stage %s; a message's round trip to the last stage {}", strings.Join(ex, " / ")), strategy.Nanos(trip))
	if send > cycle {
		// The link carries one message each way per microbatch: slower
		// than the slowest stage's work, it sets the pace itself.
		return []strategy.Part{head, strategy.Figure("a message {} takes longer than the slowest stage's F+B {}: the link sets the pace and sends cannot hide", strategy.Nanos(send), strategy.Nanos(cycle))}
	}
	return []strategy.Part{head,
		strategy.Compare(strategy.Check{Name: "sends hidden under compute", Formula: "ΣF + ΣB + 2ΣS + (m−1)·max(F+B)",
			Source: "1F1B's makespan with only the first and last trips exposed (Narayanan et al. 2021; HAPT's re-timing, Liang et al. 2025)", Tolerance: 0.02},
			"pipeline phase {} against {} with every send hidden", float64(end-start), float64(want), strategy.Nanoseconds),
	}
}
