//go:build !js

package training

import (
	"fmt"
	"math"
	"strings"

	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Caption is the caption of a training demo:
//
//   - a pipeline of synthetic stages on an ideal network: the simulated
//     bubble beside the schedule's closed form (pipeline.BubbleFormula);
//   - a real model: iteration time, tokens/s, MFU and peak memory per GPU;
//   - a mixture of experts: exposed EP time, the busiest GPU's load and
//     the dropped token copies (moeMetrics);
//   - hierarchical ZeRO (parallel.zero_group set): model states and
//     bytes between servers beside their closed forms (hzpMetrics);
//   - per-layer sharding (parallel.zero_layers set): model states
//     beside the sum over layers (osdpMetrics);
//   - HAPT's operator-level split and heterogeneity-aware 1F1B: the
//     slowest stage beside the balanced closed form, the pipeline beside
//     1F1B's makespan with hidden sends (haptMetrics);
//   - subnetwork data parallelism: a worker's model states and gradient
//     bytes beside their formulas (sdpMetrics);
//   - several iterations or faults: the steps done and lost, the
//     detectors' verdicts, the replicas' imbalance (iterationMetrics);
//   - a TPU slice: data parallelism against the scaling book's tokens
//     per chip, and the days to train a token budget beside its 6·N·T
//     estimate (torusMetrics);
//   - a long run (failures.duration set): failures and goodput beside
//     Daly's closed form, and Young's optimum interval (longRunMetrics).
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	head := strategy.Figure("iteration {}", strategy.Nanos(sum.Iteration))
	if len(sum.Iterations) > 0 {
		head.Text = "run {}" // several iterations, or one with faults
	}
	if sum.Step > 0 { // staggered replicas: tokens/s and MFU count the step
		head = strategy.Figure("first step {} from a staggered start, then a step every {}", strategy.Nanos(sum.Iteration), strategy.Nanos(sum.Step))
	}
	parts := append([]strategy.Part{head}, trainingMetrics(s, sum)...)
	parts = append(parts, moeMetrics(s, sum)...)
	parts = append(parts, sdpMetrics(s, tl)...)
	parts = append(parts, hzpMetrics(s, tl)...)
	parts = append(parts, osdpMetrics(s, tl)...)
	parts = append(parts, haptMetrics(s, tl)...)
	parts = append(parts, iterationMetrics(s, sum)...)
	parts = append(parts, compressionMetrics(s, tl)...)
	if s.Recovery.Policy == scenario.PolicyResiHP && len(s.Faults) > 0 && s.Failures.Duration == 0 {
		more, err := resihpMetrics(s, tl)
		if err != nil {
			return nil, err
		}
		parts = append(parts, more...)
	}
	parts = append(parts, readyFirstMetrics(s, sum)...)
	parts = append(parts, stpMetrics(s, sum)...)
	parts = append(parts, cyclicMetrics(s, tl, sum)...)
	parts = append(parts, torusMetrics(s, tl, sum)...)
	if s.Failures.Duration > 0 {
		long, err := longRunMetrics(s)
		if err != nil {
			return nil, err
		}
		parts = append(parts, long...)
	}
	return parts, nil
}

// trainingMetrics is a training run's part of the caption.
func trainingMetrics(s scenario.Scenario, sum timeline.Summary) []strategy.Part {
	p := s.Parallel
	if s.Model.IsSynthetic() {
		return pipelineMetrics(s, sum)
	}
	mfu := "MFU {}"
	if s.Training.Precision == "fp8" {
		// MFU stays against the bf16 peak, so that fp8 and bf16 runs
		// compare; against the FP8 peak it would be about half.
		mfu = "MFU {} of the bf16 peak (fp8 GEMMs)"
	}
	parts := []strategy.Part{
		strategy.Figure("{} tokens/s", strategy.Value{V: sum.TokensPerSecond, Unit: strategy.Count}),
		strategy.Figure(mfu, strategy.Value{V: sum.MFU, Unit: strategy.Percent}),
	}
	if p.PP > 1 {
		parts = append(parts, strategy.Figure("bubble {}", strategy.Value{V: sum.BubbleFraction, Unit: strategy.Percent}))
	}
	return append(parts, memoryMetrics(p, sum)...)
}

// pipelineMetrics is a synthetic pipeline's part of the caption: the
// simulated bubble beside its schedule's closed form.
func pipelineMetrics(s scenario.Scenario, sum timeline.Summary) []strategy.Part {
	p := s.Parallel
	if p.PP < 2 {
		return nil
	}
	sim := strategy.Value{V: sum.BubbleFraction, Unit: strategy.Percent, Role: strategy.Simulated}
	if s.Cluster.Network != "ideal" {
		return []strategy.Part{strategy.Figure("simulated bubble {} (messages take time and shift the stages, so no closed form; their waits count as exposed communication)", sim)}
	}
	times := syntheticTimes(s.Model.Synthetic)
	b, ok := pipeline.BubbleFormula(p.Schedule, p.PP, p.Microbatches, max(1, p.VirtualStages), times)
	if !ok {
		return []strategy.Part{strategy.Figure("simulated bubble {} ("+p.Schedule+" has no simple closed form)", sim)}
	}
	where := b.Where
	if where != "" {
		where += ", "
	}
	parts := []strategy.Part{{Text: fmt.Sprintf("simulated bubble {}; formula %s = {} (%sp = %d, m = %d%s)", b.Formula, where, p.PP, p.Microbatches, vNote(p)),
		Values: []strategy.Value{sim, {V: b.Fraction, Unit: strategy.Percent, Role: strategy.Expected}},
		Check:  &strategy.Check{Name: "pipeline bubble", Formula: b.Formula, Source: "Huang et al. 2019; Narayanan et al. 2021; Qi et al. 2024", Tolerance: 1e-6}}}
	if p.Schedule == "local-loss" {
		// A zero bubble is not the whole story: the stages start one
		// forward apart, so the iteration is longer than the work.
		parts = append(parts, strategy.Compare(strategy.Check{Name: "local-loss iteration", Formula: "m(T_F+T_B+T_W)+(p−1)T_F",
			Source: "Laskin et al. 2020's local parallelism", Tolerance: 1e-9},
			"simulated iteration {}; formula m(T_F+T_B+T_W)+(p−1)T_F = {}", float64(sum.Iteration),
			float64(pipeline.LocalLossIteration(p.PP, p.Microbatches, times)), strategy.Nanoseconds))
	}
	return parts
}

func vNote(p scenario.Parallel) string {
	if p.Schedule == "interleaved" {
		return fmt.Sprintf(", v = %d", p.VirtualStages)
	}
	return ""
}

// syntheticTimes are a synthetic model's per-stage op times as the
// pipeline package's closed forms take them.
func syntheticTimes(t scenario.Synthetic) pipeline.Times {
	return pipeline.Times{F: t.Forward, B: t.BackwardInput, W: t.BackwardWeight}
}

// memoryMetrics is the peak memory per GPU: one figure when every GPU
// peaks alike, else the range, and per pipeline stage when there are
// stages; then which GPUs run out of memory, and which are in the warning
// zone above 90% of their HBM.
func memoryMetrics(p scenario.Parallel, sum timeline.Summary) []strategy.Part {
	if len(sum.GPUs) == 0 {
		return nil
	}
	var lo, hi units.Bytes
	oom, near := 0, 0
	for i, g := range sum.GPUs {
		if i == 0 || g.PeakMemory < lo {
			lo = g.PeakMemory
		}
		hi = max(hi, g.PeakMemory)
		if g.OOM {
			oom++
		}
		if g.NearOOM {
			near++
		}
	}
	bytes := func(b units.Bytes) strategy.Value { return strategy.Value{V: float64(b), Unit: strategy.GiB} }
	var out []strategy.Part
	switch {
	case p.PP > 1:
		out = append(out, stageMemory(p, sum))
	case tenthsOfGiB(lo) == tenthsOfGiB(hi): // mixed GPUs differ by their reserves' MiB
		out = append(out, strategy.Figure("peak memory per GPU {}", bytes(hi)))
	default:
		out = append(out, strategy.Figure("peak memory per GPU {}–{}", bytes(lo), bytes(hi)))
	}
	if oom > 0 {
		out = append(out, strategy.Figure("OOM on {} of {} GPUs", strategy.Whole(oom), strategy.Whole(len(sum.GPUs))))
	}
	if near > 0 {
		out = append(out, strategy.Figure("over 90% of HBM on {} of {} GPUs", strategy.Whole(near), strategy.Whole(len(sum.GPUs))))
	}
	return out
}

// tenthsOfGiB is b in tenths of a GiB, as a caption prints it.
func tenthsOfGiB(b units.Bytes) int64 { return int64(math.Round(float64(b) / float64(units.GiB) * 10)) }

// stageMemory lists the largest peak of each pipeline stage's GPUs:
// "stage 0 23.5 GiB, stage 1 19.2 GiB"; the first two and the last when
// there are more than four stages.
func stageMemory(p scenario.Parallel, sum timeline.Summary) strategy.Part {
	plan := p.Plan()
	peak := make([]units.Bytes, p.PP)
	for _, g := range sum.GPUs {
		if g.Rank < 0 || g.Rank >= plan.World() {
			continue
		}
		st := plan.Coord(g.Rank).PP
		peak[st] = max(peak[st], g.PeakMemory)
	}
	var texts []string
	var values []strategy.Value
	for st, b := range peak {
		if p.PP > 4 && st >= 2 && st < p.PP-1 {
			if st == 2 {
				texts = append(texts, "…")
			}
			continue
		}
		texts = append(texts, fmt.Sprintf("stage %d {}", st))
		values = append(values, strategy.Value{V: float64(b), Unit: strategy.GiB})
	}
	return strategy.Figure("peak memory per GPU "+strings.Join(texts, ", "), values...)
}

// DescribeDemo is a training demo's description: the model (or the
// synthetic stages' op times), the cluster and the plan.
func (Strategy) DescribeDemo(s *scenario.Scenario) string {
	p := s.Parallel
	var b strings.Builder
	if s.Model.IsSynthetic() {
		y := s.Model.Synthetic
		fmt.Fprintf(&b, "%s, synthetic stages (F %v, B %v, W %v per microbatch)", scenario.GPUCount(s.NumGPUs()), y.Forward, y.BackwardInput, y.BackwardWeight)
	} else {
		label := "a custom model"
		if s.Model.Preset != "" {
			label = s.Model.Label()
		}
		fmt.Fprintf(&b, "%s on %s", label, scenario.GPUCount(s.NumGPUs()))
	}
	if s.Cluster.GPU != "" {
		fmt.Fprintf(&b, " (%d× %d %s)", max(1, s.Cluster.Nodes), s.NumGPUs()/max(1, s.Cluster.Nodes), s.Cluster.GPU)
	}
	if s.Cluster.Network == "ideal" {
		b.WriteString(" on an ideal network")
	}
	fmt.Fprintf(&b, "; dp %d × tp %d × pp %d, %s, %s", p.DP, p.TP, p.PP, p.Schedule, microbatches(p.Microbatches))
	if p.Schedule == "interleaved" {
		fmt.Fprintf(&b, ", v = %d", p.VirtualStages)
	}
	if c := SDPOf(s); c.Fraction != 0 {
		fmt.Fprintf(&b, "; subnetworks of f = %g (%s level, %s, %s masking)", c.Fraction, c.Level, c.Assignment, c.Masking)
	}
	return b.String()
}
