package site

import (
	"fmt"
	"paraplay/sim/nccltest"
	"paraplay/sim/training"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// captionMetrics is the caption's line of key numbers, every one computed
// at build time from the scenario and its run, never typed by an author.
// Where a closed form from ../shared/reference.md prices the same thing,
// the caption prints it beside the simulated figure, so a reader (and
// TestCaptionCrossChecks) can see the two agree:
//
//   - a pipeline of synthetic stages on an ideal network: the simulated
//     bubble beside the schedule's closed form;
//   - a collective or a data-parallel run: the collective's simulated time
//     beside its α–β formula on the links it runs on;
//   - a real model: iteration time, tokens/s, MFU and peak memory per GPU;
//   - a long run (failures.duration set): failures and goodput beside
//     Daly's closed form, and Young's optimum interval (longRunMetrics).
func captionMetrics(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	if sum.Async != nil {
		return asyncMetrics(s, tl, sum) // asynccheck.go
	}
	if sum.RLHF != nil {
		return rlhfMetrics(s, tl, sum) // rlhfcheck.go
	}
	if sum.Inference != nil {
		return inferenceMetrics(s, tl, sum) // inferencecheck.go
	}
	if sum.Split != nil {
		return splitMetrics(s, tl, sum) // splitcheck.go
	}
	parts := []strategy.Part{strategy.Figure("iteration {}", ns(sum.Iteration))}
	if len(sum.Iterations) > 0 {
		parts[0].Text = "run {}" // several iterations, or one with faults
	}
	if s.Strategy == training.Name {
		parts = append(parts, trainingMetrics(s, sum)...)
		parts = append(parts, iterationMetrics(s, sum)...)
		if s.Failures.Duration > 0 {
			long, err := longRunMetrics(s)
			if err != nil {
				return nil, err
			}
			parts = append(parts, long...)
		}
		return parts, nil
	}
	if len(sum.Collectives) == 0 {
		return parts, nil
	}
	if s.Strategy == nccltest.Name {
		parts = nil // the collective is the whole run: its time says it all
	}
	more, err := collectiveParts(s, sum.Collectives[0]) // the first collective is the one the lesson is about
	return append(parts, more...), err
}

// collectiveParts sets a collective's simulated time beside its α–β
// formula, then its bus bandwidth.
func collectiveParts(s scenario.Scenario, c timeline.CollectiveSummary) ([]strategy.Part, error) {
	// The timeline names the op as people write it ("all-reduce") and the
	// algorithm as it ran (auto resolved); collective.Time wants the
	// scenario's spelling.
	formula, secs, err := collectiveFormula(s, s.Collective.Op, strings.ReplaceAll(c.Algorithm, "-", "_"))
	if err != nil {
		return nil, err
	}
	label := fmt.Sprintf("%s (%s): simulated {}; %s = {}", strings.ReplaceAll(c.Name, "_", "-"), strings.ReplaceAll(c.Algorithm, "_", "-"), formula)
	// Each step's α and transfer time is rounded to the nanosecond.
	pair := strategy.Compare(strategy.Check{Name: "collective time", Formula: formula,
		Source: "the α–β model (Thakur, Rabenseifner & Gropp 2005)", Tolerance: 1e-4},
		label, float64(c.Time), float64(units.Round(secs)), strategy.Nanoseconds)
	if s.Compute.Jitter > 0 && !s.Ignores("compute.jitter") {
		// Ranks that finish their compute late join late: the collective
		// then lasts longer than the closed form, which the reader sees.
		pair.Check = nil
	}
	return []strategy.Part{pair, strategy.Figure("busbw {}", strategy.Value{V: float64(c.BusBW), Unit: strategy.GBps})}, nil
}

// trainingMetrics is a training run's part of the caption.
func trainingMetrics(s scenario.Scenario, sum timeline.Summary) []strategy.Part {
	p := s.Parallel
	if s.Model.IsSynthetic() {
		return pipelineMetrics(s, sum)
	}
	parts := []strategy.Part{
		strategy.Figure("{} tokens/s", strategy.Value{V: sum.TokensPerSecond, Unit: strategy.Count}),
		strategy.Figure("MFU {}", strategy.Value{V: sum.MFU, Unit: strategy.Percent}),
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
		return []strategy.Part{strategy.Figure("simulated bubble {} (communication included, so no closed form)", sim)}
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
// stages; then which GPUs run out of memory.
func memoryMetrics(p scenario.Parallel, sum timeline.Summary) []strategy.Part {
	if len(sum.GPUs) == 0 {
		return nil
	}
	var lo, hi units.Bytes
	oom := 0
	for i, g := range sum.GPUs {
		if i == 0 || g.PeakMemory < lo {
			lo = g.PeakMemory
		}
		hi = max(hi, g.PeakMemory)
		if g.OOM {
			oom++
		}
	}
	bytes := func(b units.Bytes) strategy.Value { return strategy.Value{V: float64(b), Unit: strategy.GiB} }
	var out []strategy.Part
	switch {
	case p.PP > 1:
		out = append(out, stageMemory(p, sum))
	case lo == hi:
		out = append(out, strategy.Figure("peak memory per GPU {}", bytes(hi)))
	default:
		out = append(out, strategy.Figure("peak memory per GPU {}–{}", bytes(lo), bytes(hi)))
	}
	if oom > 0 {
		out = append(out, strategy.Figure("OOM on {} of {} GPUs", whole(oom), whole(len(sum.GPUs))))
	}
	return out
}

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

// collectiveFormula is the α–β closed form of op/algo (auto resolved) on
// the scenario's links, as text and in seconds: collective.Time on the
// bottleneck α and bandwidth between neighbouring ranks, the pair the
// simulator's own schedules are built for (on ideal links these are
// link.latency and link.bandwidth). The hierarchical all-reduce is priced
// on the intra-node and inter-node paths separately.
func collectiveFormula(s scenario.Scenario, op, algo string) (string, float64, error) {
	t, err := nccltest.Topology(s)
	if err != nil {
		return "", 0, err
	}
	n := s.NumGPUs()
	gpus := make([]int, n)
	for i := range gpus {
		gpus[i] = i
	}
	alpha, bw, err := topo.NewPaths(t).Bottleneck(gpus)
	if err != nil {
		return "", 0, err
	}
	per := s.Cluster.GPUsPerNode
	if per == 0 {
		per = n
	}
	cfg := collective.Config{Ranks: n, Nodes: n / per, PerNode: per, Bytes: s.Collective.Size,
		Chunks: s.Collective.Chunks, Alpha: alpha, Bandwidth: bw}
	if op == "all_reduce" && algo == "hierarchical" && per > 1 && per < n {
		secs, err := hierarchicalTime(t, cfg)
		return "α–β formula 2(g−1)α₁ + 2(g−1)/g·S/B₁ + 2(N−1)α₂ + 2(N−1)/N·(S/g)/B₂", secs, err
	}
	secs, err := collective.Time(op, algo, cfg, alpha, bw)
	if err != nil {
		return "", 0, fmt.Errorf("caption formula: %w", err)
	}
	return "α–β formula " + collective.FormulaText(op, algo, max(1, s.Collective.Chunks)), secs, nil
}

// hierarchicalTime prices the two-level all-reduce with α and bandwidth
// of a path inside a node (GPU 0 to 1) and between nodes (GPU 0 to the
// first GPU of node 1), as run's analytic fidelity does.
func hierarchicalTime(t *topo.Topology, cfg collective.Config) (float64, error) {
	ia, ib, err := topo.NewRouter(t).PathCost(0, 1)
	if err != nil {
		return 0, err
	}
	ea, eb, err := topo.NewRouter(t).PathCost(0, cfg.PerNode)
	if err != nil {
		return 0, err
	}
	return collective.HierarchicalTime(cfg.Nodes, cfg.PerNode, cfg.Bytes, ia, ib, ea, eb), nil
}

// pct prints a fraction as a percentage with one decimal: "27.3%".
func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// gib prints bytes in GiB to one decimal.
func gib(b units.Bytes) string { return fmt.Sprintf("%.1f GiB", float64(b)/float64(units.GiB)) }

// roundCount prints a rate to three significant digits: "92.2k".
func roundCount(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.3gM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.3gk", x/1e3)
	}
	return fmt.Sprintf("%.3g", x)
}
