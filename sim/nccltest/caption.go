//go:build !js

package nccltest

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// CollectiveParts sets a collective's simulated time beside its α–β
// formula, then its bus bandwidth.
func CollectiveParts(s scenario.Scenario, c timeline.CollectiveSummary) ([]strategy.Part, error) {
	// The timeline names the algorithm as it ran (auto resolved).
	formula, secs, err := Formula(s, s.Collective.Op, c.Algorithm)
	if err != nil {
		return nil, err
	}
	label := fmt.Sprintf("%s (%s): simulated {}; %s = {}", c.Name.Label(), collective.Label(c.Algorithm), formula)
	// Each step's α and transfer time is rounded to the nanosecond.
	source := "the α–β model (Thakur, Rabenseifner & Gropp 2005)"
	if c.Algorithm == AlgorithmTorus {
		source = "a bidirectional ring per torus axis (Austin et al. 2025, 'How to Scale Your Model', Part 3)"
	}
	pair := strategy.Compare(strategy.Check{Name: "collective time", Formula: formula,
		Source: source, Tolerance: 1e-4},
		label, float64(c.Time), float64(units.Round(secs)), strategy.Nanoseconds)
	if pipelinedNCCLTree(s, c.Algorithm) {
		// Its closed form is a pipeline estimate (collective.NCCLTreeTime),
		// not the schedule's exact time: shown, not checked.
		pair.Check = nil
	}
	if s.Compute.Jitter > 0 && !s.Ignores("compute.jitter") {
		// Ranks that finish their compute late join late: the collective
		// then lasts longer than the closed form, which the reader sees.
		pair.Check = nil
	}
	return []strategy.Part{pair, strategy.Figure("busbw {}", strategy.Value{V: float64(c.BusBW), Unit: strategy.GBps})}, nil
}

// Formula is the α–β closed form of op/algo (auto resolved) on
// the scenario's links, as text and in seconds: collective.Time on the
// bottleneck α and bandwidth between neighbouring ranks, the pair the
// simulator's own schedules are built for (on ideal links these are
// link.latency and link.bandwidth). The hierarchical all-reduce is priced
// on the intra-node and inter-node paths separately.
func Formula(s scenario.Scenario, op, algo string) (string, float64, error) {
	t, err := Topology(s)
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
	cfg := Config(s)
	cfg.Alpha, cfg.Bandwidth = alpha, bw
	per := cfg.PerNode
	switch algo {
	case AlgorithmTorus:
		secs, err := TorusTime(s, t)
		text := "closed form Σ over phases of the slowest axis's ⌈(n−1)/2⌉·α + (n−1)/2·b/B (a ring) or (n−1)·(α + b/B) (a line), b = the block a chip holds"
		if s.Cluster.Slices > 1 { // collective.TorusSlicesTime
			text += ", plus the DCN ring's (M−1)·(α + S/(N·M)/B) between the slices (twice for an all-reduce)"
		}
		return text, secs, err
	case AlgorithmNVLS:
		secs, _, err := inNetworkTime(s, t)
		return "closed form 2α + ((n+1)/n + 1/9)·S/B (NVLS: the NVSwitch adds)", secs, err
	case AlgorithmCollNet:
		secs, _, err := inNetworkTime(s, t)
		return "closed form 2(g−1)α₁ + 2α₂ + max(2(g−1)/g·S/B₁, S/(g·B₂)) (CollNet: the leaf switches add)", secs, err
	}
	if op == "all_reduce" && algo == "hierarchical" && per > 1 && per < n {
		secs, err := hierarchicalTime(t, cfg)
		return "α–β formula 2(g−1)α₁ + 2(g−1)/g·S/B₁ + 2(N−1)α₂ + 2(N−1)/N·(S/g)/B₂", secs, err
	}
	if algo == "ring" && cfg.Channels > 1 && cfg.Nodes > 1 && per > 1 {
		secs, err := Predict(t, op, algo, cfg, gpus)
		li, le := collective.ChannelLoads(cfg.Nodes, per, cfg.Channels)
		return fmt.Sprintf("α–β formula steps·max(α₁ + %d·S/(nC)/B₁, α₂ + %d·S/(nC)/B₂), C = %d channels", li, le, cfg.Channels), secs, err
	}
	if op == "all_to_all" && (algo == "pxn" || algo == "pairwise") && cfg.Nodes > 1 && per > 1 && per < n {
		// On the NVLink and NIC paths (collective.AllToAllPXNTime and
		// AllToAllPairwiseTwoLevelTime).
		secs, err := Predict(t, op, algo, cfg, gpus)
		if algo == "pairwise" {
			return "α–β formula max((g−1)·(α₁ + S/(n·B₁)), (n−g)·(α₂ + S/(n·B₂)))", secs, err
		}
		return "α–β formula max(M·G, G + (M−1)·E, (M−1)·G + E), G = (g−1)·(α₁ + S/(n·B₁)), E = α₂ + g·S/(n·B₂)", secs, err
	}
	if op == "all_reduce" && algo == "tree" && cfg.Nodes > 1 && per > 1 {
		// NCCL's tree across nodes (collective.NCCLTree): chains in the
		// nodes, a double binary tree over them, on the NVLink and NIC
		// paths; exact in one piece, an estimate when pipelined.
		secs, err := Predict(t, op, algo, cfg, gpus)
		name := "α–β formula"
		if s.Collective.Chunks > 1 {
			name = "pipeline estimate"
		}
		return fmt.Sprintf("%s 2(g−1)·(α₁ + S/(C·B₁)) + (4⌈log₂N⌉−2)·(α₂ + S/(2C·B₂)), C = %d channels", name, min(cfg.Channels, per)), secs, err
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

// Caption is the caption of a lone collective's demo: its simulated time
// beside its α–β formula and its bus bandwidth (CollectiveParts).
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	if len(sum.Collectives) == 0 {
		return []strategy.Part{strategy.Figure("iteration {}", strategy.Nanos(sum.Iteration))}, nil
	}
	return CollectiveParts(s, sum.Collectives[0])
}

// pipelinedNCCLTree reports whether a demo runs NCCL's tree across nodes
// in several pieces, whose closed form is only an estimate.
func pipelinedNCCLTree(s scenario.Scenario, algo string) bool {
	cfg := Config(s)
	return s.Collective.Op == "all_reduce" && algo == "tree" && cfg.Nodes > 1 && cfg.PerNode > 1 && s.Collective.Chunks > 1
}
