package nccltest

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Measurement is one collective's result in the terms nccl-tests reports.
type Measurement struct {
	// Op and Algorithm name the operation and the algorithm that ran (auto resolved).
	Op, Algorithm string
	// Ranks is the number of GPUs taking part.
	Ranks int
	// Bytes is the buffer size S as nccl-tests counts it.
	Bytes units.Bytes
	// Time is the collective's duration.
	Time units.Time
	// AlgBW is S / Time; BusBW is AlgBW × the op's nccl-tests factor.
	AlgBW, BusBW units.Bandwidth
	// Fidelity says which level ran: "detailed" or "analytic".
	Fidelity string
}

// MeasureCollective runs op/algo with cfg on t, rank r on GPU r, at the
// requested fidelity (taskgraph.Detailed, Analytic or Auto), and returns
// its measurement and timeline. "auto" as algo is resolved on the
// bottleneck path's α and bandwidth.
func MeasureCollective(t *topo.Topology, op, algo string, cfg collective.Config, fidelity string) (Measurement, *timeline.Timeline, error) {
	n := cfg.Ranks
	if n == 0 {
		n = cfg.Nodes * cfg.PerNode
	}
	if n > len(t.GPUs) {
		return Measurement{}, nil, fmt.Errorf("run: %d ranks but the cluster has %d GPUs", n, len(t.GPUs))
	}
	gpus := taskgraph.Identity(n)
	alpha, bw, err := bottleneck(t, gpus)
	if err != nil {
		return Measurement{}, nil, err
	}
	cfg.Alpha, cfg.Bandwidth = alpha, bw
	resolved, err := collective.Resolve(op, algo, cfg, alpha, bw)
	if err != nil {
		return Measurement{}, nil, err
	}
	switch fidelity {
	case taskgraph.Auto:
		fidelity = taskgraph.Detailed
		if n > taskgraph.AutoDetailedRanks {
			fidelity = taskgraph.Analytic
		}
	case taskgraph.Detailed, taskgraph.Analytic:
	default:
		return Measurement{}, nil, fmt.Errorf("run: fidelity %q; want %s, %s or %s", fidelity, taskgraph.Detailed, taskgraph.Analytic, taskgraph.Auto)
	}
	title := fmt.Sprintf("%s %s on %d GPUs, %v", resolved, op, n, cfg.Bytes)
	var tl *timeline.Timeline
	if fidelity == taskgraph.Detailed {
		sch, err := collective.New(op, resolved, cfg)
		if err != nil {
			return Measurement{}, nil, err
		}
		if tl, err = Collective(t, sch, gpus, title); err != nil {
			return Measurement{}, nil, err
		}
	} else {
		secs, err := analyticTime(t, op, resolved, cfg, gpus, alpha, bw)
		if err != nil {
			return Measurement{}, nil, err
		}
		if tl, err = CollectiveAnalytic(t, op, resolved, cfg.Bytes, gpus, max(1, units.Round(secs)), title); err != nil {
			return Measurement{}, nil, err
		}
	}
	c := tl.Collectives[0]
	m := Measurement{Op: op, Algorithm: resolved, Ranks: n, Bytes: cfg.Bytes, Time: c.End - c.Start, Fidelity: fidelity}
	if m.Time > 0 {
		m.AlgBW = units.Bandwidth(float64(cfg.Bytes) / m.Time.Seconds())
		m.BusBW = m.AlgBW * units.Bandwidth(collective.BusBWFactor(op, n))
	}
	return m, tl, nil
}

// analyticTime prices a collective with its closed form: the hierarchical
// all-reduce on the intra-node and inter-node paths, every other algorithm
// on the bottleneck path between neighbouring ranks.
func analyticTime(t *topo.Topology, op, algo string, cfg collective.Config, gpus []int, alpha units.Time, bw units.Bandwidth) (float64, error) {
	if op == "all_reduce" && algo == "hierarchical" {
		per := cfg.PerNode
		if per < 1 || per >= len(gpus) {
			return 0, fmt.Errorf("run: hierarchical needs several nodes of several GPUs")
		}
		router := topo.NewRouter(t)
		ia, ib, err := router.PathCost(gpus[0], gpus[1%per])
		if per == 1 {
			ia, ib, err = alpha, bw, nil
		}
		if err != nil {
			return 0, err
		}
		ea, eb, err := router.PathCost(gpus[0], gpus[per])
		if err != nil {
			return 0, err
		}
		return collective.HierarchicalTime(cfg.Nodes, per, cfg.Bytes, ia, ib, ea, eb), nil
	}
	return collective.Time(op, algo, cfg, alpha, bw)
}

// Collective runs one collective schedule in detail on topology t, rank r
// on GPU gpus[r]: every message is a flow on the links, sharing them with
// the others. The timeline's only collective is the schedule.
func Collective(t *topo.Topology, sch collective.Schedule, gpus []int, title string) (*timeline.Timeline, error) {
	if err := checkPlacement(t, sch.Ranks, gpus); err != nil {
		return nil, err
	}
	if err := sch.Validate(); err != nil {
		return nil, fmt.Errorf("run: invalid schedule: %w", err)
	}
	g := taskgraph.New(t, title)
	g.Reserve(len(sch.Transfers), len(sch.Transfers), len(sch.Transfers)+len(sch.Transfers)/4)
	g.AddSchedule(sch, gpus, nil, "")
	return g.Finish("nccltest")
}

// CollectiveAnalytic records a collective priced by a closed form instead
// of simulated message by message: one span of length d for all its GPUs.
// It is the "analytic" fidelity, for runs too large to animate.
func CollectiveAnalytic(t *topo.Topology, op, algo string, bytes units.Bytes, gpus []int, d units.Time, title string) (*timeline.Timeline, error) {
	if err := checkPlacement(t, len(gpus), gpus); err != nil {
		return nil, err
	}
	if d <= 0 {
		return nil, fmt.Errorf("run: analytic collective of duration %v", d)
	}
	tl := taskgraph.NewTimeline(t, title)
	tl.Fidelity = taskgraph.Analytic
	tl.Collectives = []timeline.Collective{{Name: collective.Op(op), Algorithm: algo, Ranks: len(gpus), Bytes: bytes,
		GPUs: append([]int(nil), gpus...), Start: 0, End: d}}
	tl.End = d
	if err := taskgraph.Check(tl, "nccltest"); err != nil {
		return nil, err
	}
	return tl, nil
}

// bottleneck is the α and bandwidth an α–β formula should use for a
// collective over gpus (topo.Paths.Bottleneck), at least 2 of them.
func bottleneck(t *topo.Topology, gpus []int) (units.Time, units.Bandwidth, error) {
	if len(gpus) < 2 {
		return 0, 0, fmt.Errorf("run: a collective needs at least 2 ranks, got %d", len(gpus))
	}
	return topo.NewPaths(t).Bottleneck(gpus)
}

func checkPlacement(t *topo.Topology, ranks int, gpus []int) error {
	if len(gpus) != ranks {
		return fmt.Errorf("run: %d ranks placed on %d GPUs", ranks, len(gpus))
	}
	seen := make(map[int]bool, len(gpus))
	for r, g := range gpus {
		if !t.IsGPU(g) || seen[g] {
			return fmt.Errorf("run: rank %d on GPU %d, which does not exist or holds another rank", r, g)
		}
		seen[g] = true
	}
	return nil
}
