package partitioned

import (
	"cmp"
	"fmt"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/training"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Simulate runs s, which Validate has accepted: one iteration of a
// sub-model and one of the full model, simulated by package training and
// repeated in place, around the merge (see the package doc).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	c := SettingsOf(&s)
	sub, full, err := phases(s)
	if err != nil {
		return nil, fmt.Errorf("partitioned.parts: %w", err)
	}
	t1, err := training.Simulate(sub)
	if err != nil {
		return nil, fmt.Errorf("phase 1: %w", err)
	}
	t3, err := training.Simulate(full)
	if err != nil {
		return nil, fmt.Errorf("phase 3: %w", err)
	}
	rec, err := record(c, sub, full, t1, t3)
	if err != nil {
		return nil, err
	}
	tl := &timeline.Timeline{Title: s.Title(), Fidelity: "analytic", GPUs: t3.GPUs, Switches: t3.Switches, Links: t3.Links,
		Events: t1.Events + t3.Events, Extra: map[string]timeline.Record{Name: rec}}
	g := len(t1.GPUs)
	for step := 0; step < c.PreSteps; step++ {
		for part := 0; part < c.Parts; part++ {
			repeat(tl, t1, part*g, step, units.Time(step)*rec.SubStep)
		}
	}
	all := make([]int, len(tl.GPUs))
	for i := range all {
		all[i] = i
	}
	tl.Collectives = append(tl.Collectives, timeline.Collective{Name: collective.OpAllGather, Algorithm: "ring", Ranks: len(all),
		Bytes: rec.MergeBytes / units.Bytes(len(all)), GPUs: all, Purpose: "merge", Start: rec.Phase1, End: rec.Phase1 + rec.Merge})
	for step := 0; step < c.FullSteps; step++ {
		repeat(tl, t3, 0, c.PreSteps+step, rec.Phase1+rec.Merge+units.Time(step)*rec.FullStep)
	}
	tl.End = rec.Phase1 + rec.Merge + units.Time(c.FullSteps)*rec.FullStep
	slices.SortStableFunc(tl.Spans, func(a, b timeline.Span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU)) })
	if err := tl.Validate(); err != nil {
		return nil, fmt.Errorf("partitioned: internal error, the timeline is inconsistent: %w", err)
	}
	return tl, nil
}

// repeat copies src's spans and collectives into tl, on the GPUs from gpu
// on and from the instant at on, as the run's step step.
func repeat(tl, src *timeline.Timeline, gpu, step int, at units.Time) {
	for _, sp := range src.Spans {
		sp.GPU += gpu
		sp.Iteration = step
		sp.Start += at
		sp.End += at
		tl.Spans = append(tl.Spans, sp)
	}
	for _, c := range src.Collectives {
		c.GPUs = slices.Clone(c.GPUs)
		for i := range c.GPUs {
			c.GPUs[i] += gpu
		}
		c.Start += at
		c.End += at
		tl.Collectives = append(tl.Collectives, c)
	}
}

// record works out the phases of a run from the two simulated iterations:
// their times, the merge's ring all-gather closed form over every GPU on
// the cluster's bottleneck link, (n−1)α + (n−1)/n·S/B with S every
// sub-model's bf16 weights, and each phase's parameters and peak memory.
func record(c Settings, sub, full scenario.Scenario, t1, t3 *timeline.Timeline) (*Record, error) {
	ms, err := sub.Model.Resolve()
	if err != nil {
		return nil, err
	}
	mf, err := full.Model.Resolve()
	if err != nil {
		return nil, err
	}
	r := &Record{Settings: c, SubStep: t1.End, FullStep: t3.End,
		SubParams: float64(workload.Params(ms).Total()), FullParams: float64(workload.Params(mf).Total()),
		SubPeak: peak(t1), FullPeak: peak(t3), SubGPUs: len(t1.GPUs), GPUs: len(t3.GPUs)}
	if t1.Training != nil && t3.Training != nil {
		r.SubFLOPs, r.FullFLOPs = t1.Training.ModelFLOPs, t3.Training.ModelFLOPs
	}
	r.Phase1 = units.Time(c.PreSteps) * r.SubStep
	r.MergeBytes = units.Bytes(float64(c.Parts) * r.SubParams * 2)
	t, err := training.Topology(full)
	if err != nil {
		return nil, err
	}
	all := make([]int, len(t.GPUs))
	for i := range all {
		all[i] = i
	}
	alpha, bw, err := topo.NewPaths(t).Bottleneck(all)
	if err != nil {
		return nil, err
	}
	n := float64(len(all))
	r.Merge = max(1, units.Round((n-1)*alpha.Seconds()+(n-1)/n*float64(r.MergeBytes)/float64(bw)))
	return r, nil
}

// peak is the largest per-GPU peak memory of tl.
func peak(tl *timeline.Timeline) units.Bytes {
	var p units.Bytes
	for _, m := range tl.Memory {
		p = max(p, m.Peak)
	}
	return p
}
