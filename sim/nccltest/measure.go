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
