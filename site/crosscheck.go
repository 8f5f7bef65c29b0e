package site

import (
	"fmt"
	"math"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
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
func captionMetrics(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) (string, error) {
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
	parts := []string{"iteration " + roundTime(sum.Iteration)}
	if len(sum.Iterations) > 0 {
		parts[0] = "run " + roundTime(sum.Iteration) // several iterations, or one with faults
	}
	if s.Strategy == scenario.StrategyTraining {
		parts = append(parts, trainingMetrics(s, sum)...)
		parts = append(parts, iterationMetrics(s, sum)...)
		if s.Failures.Duration > 0 {
			long, err := longRunMetrics(s)
			if err != nil {
				return "", err
			}
			parts = append(parts, long)
		}
		return strings.Join(parts, " · "), nil
	}
	if len(sum.Collectives) == 0 {
		return parts[0], nil
	}
	c := sum.Collectives[0] // the first collective is the one the lesson is about
	if s.Strategy == scenario.StrategyCollective {
		parts = nil // the collective is the whole run: its time says it all
	}
	// The timeline names the op as people write it ("all-reduce") and the
	// algorithm as it ran (auto resolved); collective.Time wants the
	// scenario's spelling.
	formula, secs, err := collectiveFormula(s, s.Collective.Op, strings.ReplaceAll(c.Algorithm, "-", "_"))
	if err != nil {
		return "", err
	}
	parts = append(parts, fmt.Sprintf("%s (%s): simulated %s; %s = %s", strings.ReplaceAll(c.Name, "_", "-"),
		strings.ReplaceAll(c.Algorithm, "_", "-"), roundTime(c.Time), formula, roundTime(units.Round(secs))),
		fmt.Sprintf("busbw %.3g GB/s", float64(c.BusBW)/1e9))
	return strings.Join(parts, " · "), nil
}

// trainingMetrics is a training run's part of the caption.
func trainingMetrics(s scenario.Scenario, sum timeline.Summary) []string {
	p := s.Parallel
	if s.Model.IsSynthetic() {
		if p.PP < 2 {
			return nil
		}
		sim := fmt.Sprintf("simulated bubble %s", pct(sum.BubbleFraction))
		if s.Cluster.Network != "ideal" {
			return []string{sim + " (communication included, so no closed form)"}
		}
		text, where, frac, ok := bubbleFormula(p.Schedule, p.PP, p.Microbatches, max(1, p.VirtualStages), s.Model.Synthetic)
		if !ok {
			return []string{sim + " (" + p.Schedule + " has no simple closed form)"}
		}
		parts := []string{fmt.Sprintf("%s; formula %s = %s (%sp = %d, m = %d%s)", sim, text, pct(frac),
			where, p.PP, p.Microbatches, vNote(p))}
		if p.Schedule == "local-loss" {
			// A zero bubble is not the whole story: the stages start one
			// forward apart, so the iteration is longer than the work.
			parts = append(parts, fmt.Sprintf("simulated iteration %s; formula m(T_F+T_B+T_W)+(p−1)T_F = %s",
				roundTime(sum.Iteration), roundTime(localLossIteration(p.PP, p.Microbatches, s.Model.Synthetic))))
		}
		return parts
	}
	parts := []string{
		fmt.Sprintf("%s tokens/s", roundCount(sum.TokensPerSecond)),
		fmt.Sprintf("MFU %s", pct(sum.MFU)),
	}
	if p.PP > 1 {
		parts = append(parts, "bubble "+pct(sum.BubbleFraction))
	}
	return append(parts, memoryMetrics(p, sum)...)
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
func memoryMetrics(p scenario.Parallel, sum timeline.Summary) []string {
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
	var out []string
	switch {
	case p.PP > 1:
		out = append(out, "peak memory per GPU "+stageMemory(p, sum))
	case lo == hi:
		out = append(out, "peak memory per GPU "+gib(hi))
	default:
		out = append(out, "peak memory per GPU "+gib(lo)+"–"+gib(hi))
	}
	if oom > 0 {
		out = append(out, fmt.Sprintf("OOM on %d of %d GPUs", oom, len(sum.GPUs)))
	}
	return out
}

// stageMemory lists the largest peak of each pipeline stage's GPUs:
// "stage 0 23.5 GiB, stage 1 19.2 GiB"; the first two and the last when
// there are more than four stages.
func stageMemory(p scenario.Parallel, sum timeline.Summary) string {
	plan := p.Plan()
	peak := make([]units.Bytes, p.PP)
	for _, g := range sum.GPUs {
		if g.Rank < 0 || g.Rank >= plan.World() {
			continue
		}
		st := plan.Coord(g.Rank).PP
		peak[st] = max(peak[st], g.PeakMemory)
	}
	var parts []string
	for st, b := range peak {
		if p.PP > 4 && st >= 2 && st < p.PP-1 {
			if st == 2 {
				parts = append(parts, "…")
			}
			continue
		}
		parts = append(parts, fmt.Sprintf("stage %d %s", st, gib(b)))
	}
	return strings.Join(parts, ", ")
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
	return "α–β formula " + formulaText(op, algo, max(1, s.Collective.Chunks)), secs, nil
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
