package site

import (
	"fmt"
	"math"
	"paraplay/sim/nccltest"
	"paraplay/sim/training"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/run"
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
	text, where, frac, ok := bubbleFormula(p.Schedule, p.PP, p.Microbatches, max(1, p.VirtualStages), s.Model.Synthetic)
	if !ok {
		return []strategy.Part{strategy.Figure("simulated bubble {} ("+p.Schedule+" has no simple closed form)", sim)}
	}
	parts := []strategy.Part{{Text: fmt.Sprintf("simulated bubble {}; formula %s = {} (%sp = %d, m = %d%s)", text, where, p.PP, p.Microbatches, vNote(p)),
		Values: []strategy.Value{sim, {V: frac, Unit: strategy.Percent, Role: strategy.Expected}},
		Check:  &strategy.Check{Name: "pipeline bubble", Formula: text, Source: "Huang et al. 2019; Narayanan et al. 2021; Qi et al. 2024", Tolerance: 1e-6}}}
	if p.Schedule == "local-loss" {
		// A zero bubble is not the whole story: the stages start one
		// forward apart, so the iteration is longer than the work.
		parts = append(parts, strategy.Compare(strategy.Check{Name: "local-loss iteration", Formula: "m(T_F+T_B+T_W)+(p−1)T_F",
			Source: "Laskin et al. 2020's local parallelism", Tolerance: 1e-9},
			"simulated iteration {}; formula m(T_F+T_B+T_W)+(p−1)T_F = {}", float64(sum.Iteration),
			float64(localLossIteration(p.PP, p.Microbatches, s.Model.Synthetic)), strategy.Nanoseconds))
	}
	return parts
}

func vNote(p scenario.Parallel) string {
	if p.Schedule == "interleaved" {
		return fmt.Sprintf(", v = %d", p.VirtualStages)
	}
	return ""
}

// bubbleFormula is the closed-form bubble of a schedule as a fraction of
// the window that timeline.Summary's BubbleFraction measures: a stage's
// first op to its last, m·(T_F+T_B+T_W) of work plus the idle time. The
// idle times are reference.md's (Huang et al. 2019; Narayanan et al. 2021;
// Qi et al. 2024); t holds the per-stage op times (an interleaved chunk
// runs 1/v of them). ok is false for the schedules without a closed form
// that is exact in the simulator (ZB-V, DualPipeV, asynchronous PipeDream).
func bubbleFormula(schedule string, p, m, v int, t scenario.Synthetic) (text, where string, frac float64, ok bool) {
	pf, mf, vf := float64(p), float64(m), float64(v)
	F, B, W := t.Forward.Seconds(), t.BackwardInput.Seconds(), t.BackwardWeight.Seconds()
	overOps := func(idle float64) float64 { return idle / (mf*(F+B+W) + idle) }
	switch schedule {
	case "gpipe", "1f1b":
		return "(p−1)/(m+p−1)", "", (pf - 1) / (mf + pf - 1), true
	case "interleaved":
		return "((p−1)/v)/(m+(p−1)/v)", "", ((pf - 1) / vf) / (mf + (pf-1)/vf), true
	case "zb-h1":
		return "b/(m(T_F+T_B+T_W)+b)", "b = (p−1)(T_F+T_B−T_W), ", overOps((pf - 1) * (F + B - W)), true
	case "zb-h2":
		return "b/(m(T_F+T_B+T_W)+b)", "b = max(0, (p−1)(T_F+T_B−2T_W)), ", overOps(math.Max(0, (pf-1)*(F+B-2*W))), true
	case "local-loss":
		// No stage waits for a downstream gradient (Laskin et al. 2020's
		// local parallelism), so no device idles once it has started.
		return "b/(m(T_F+T_B+T_W)+b)", "b = 0, ", overOps(0), true
	}
	return "", "", 0, false
}

// localLossIteration is the makespan of the local-loss pipeline:
// m(T_F+T_B+T_W) of work on every device plus the (p−1)·T_F it takes the
// first activation to reach the last stage (pipeline.LocalLoss).
func localLossIteration(p, m int, t scenario.Synthetic) units.Time {
	return units.Time(m)*(t.Forward+t.BackwardInput+t.BackwardWeight) + units.Time(p-1)*t.Forward
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
	t, err := run.Topology(s)
	if err != nil {
		return "", 0, err
	}
	n := s.NumGPUs()
	gpus := make([]int, n)
	for i := range gpus {
		gpus[i] = i
	}
	alpha, bw, err := run.Bottleneck(t, gpus)
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
	return "α–β formula " + formulaText(op, algo, max(1, s.Collective.Chunks)), secs, nil
}

// hierarchicalTime prices the two-level all-reduce with α and bandwidth
// of a path inside a node (GPU 0 to 1) and between nodes (GPU 0 to the
// first GPU of node 1), as run's analytic fidelity does.
func hierarchicalTime(t *topo.Topology, cfg collective.Config) (float64, error) {
	ia, ib, err := run.PathCost(t, 0, 1)
	if err != nil {
		return 0, err
	}
	ea, eb, err := run.PathCost(t, 0, cfg.PerNode)
	if err != nil {
		return 0, err
	}
	return collective.HierarchicalTime(cfg.Nodes, cfg.PerNode, cfg.Bytes, ia, ib, ea, eb), nil
}

// formulaText is the closed form collective.Time uses, in the caption's
// plain-text notation (n ranks, S bytes, α, bandwidth B, k chunks).
func formulaText(op, algo string, chunks int) string {
	k := ""
	if chunks > 1 {
		k = "k"
	}
	switch op + "/" + algo {
	case "all_reduce/ring":
		return "2(n−1)" + k + "α + 2(n−1)/n·S/B"
	case "all_reduce/tree":
		if chunks > 1 {
			return "(4⌈log₂n⌉−2+4(k−1))·(α + S/(2kB))"
		}
		return "(4⌈log₂n⌉−2)·(α + S/(2B))"
	case "all_reduce/halving_doubling":
		return "2·log₂n·α + 2(n−1)/n·S/B"
	case "all_reduce/recursive_doubling":
		return "⌈log₂n⌉·(α + S/B)"
	case "reduce_scatter/ring", "all_gather/ring", "all_to_all/pairwise":
		return "(n−1)α + (n−1)/n·S/B"
	case "broadcast/binomial", "reduce/binomial":
		return "⌈log₂n⌉·(α + S/B)"
	case "broadcast/chain":
		return "(n+k−2)·(α + S/(kB))"
	}
	return "(" + strings.ReplaceAll(algo, "_", "-") + ")"
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
