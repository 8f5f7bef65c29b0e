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
	// Protocol is the NCCL protocol it ran with (auto resolved), or
	// ProtocolNone for the catalog's links as they are.
	Protocol string
	// Channels is the number of parallel rings a ring op ran on, or of
	// NCCL trees a tree all-reduce across nodes ran on.
	Channels int
	// Why says, when the algorithm was "auto", what it picked over what
	// (Choice.Reason); empty otherwise.
	Why string
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
// its measurement and timeline. "auto" as algo is Choose's pick; the
// analytic fidelity prices with Predict. cfg.Channels 0 is
// collective.DefaultChannels: one ring per NIC of a node across nodes.
func MeasureCollective(t *topo.Topology, op, algo string, cfg collective.Config, fidelity string) (Measurement, *timeline.Timeline, error) {
	return MeasureProtocol(t, op, algo, ProtocolNone, cfg, fidelity)
}

// MeasureProtocol is MeasureCollective with NCCL's protocol proto: one of
// collective.ProtocolNames, ProtocolAuto (ChooseWith picks it, with the
// algorithm when algo is "auto") or ProtocolNone. Both fidelities run on
// the topology as the protocol sees it (withProtocol).
func MeasureProtocol(t *topo.Topology, op, algo, proto string, cfg collective.Config, fidelity string) (Measurement, *timeline.Timeline, error) {
	return MeasureWith(t, op, algo, Options{Protocol: proto}, cfg, fidelity)
}

// MeasureWith is MeasureProtocol with every option: o.NVLS offers
// AlgorithmNVLS, which runs at analytic fidelity whatever is asked.
func MeasureWith(t *topo.Topology, op, algo string, o Options, cfg collective.Config, fidelity string) (Measurement, *timeline.Timeline, error) {
	proto := o.Protocol
	n := cfg.Ranks
	if n == 0 {
		n = cfg.Nodes * cfg.PerNode
	}
	if n > len(t.GPUs) {
		return Measurement{}, nil, fmt.Errorf("run: %d ranks but the cluster has %d GPUs", n, len(t.GPUs))
	}
	if cfg.Channels == 0 {
		cfg.Channels = collective.DefaultChannels(cfg.Nodes, cfg.PerNode)
	}
	gpus := taskgraph.Identity(n)
	alpha, bw, err := bottleneck(t, gpus)
	if err != nil {
		return Measurement{}, nil, err
	}
	cfg.Alpha, cfg.Bandwidth, cfg.Mesh = alpha, bw, cfg.Mesh || t.DirectPorts // on a mesh, channels take cables of their own
	m := Measurement{Op: op, Algorithm: algo, Protocol: proto, Ranks: n, Bytes: cfg.Bytes}
	if algo == AlgorithmNVLS {
		if err := nvlsFits(t, op, ProtocolNone, o, gpus); err != nil {
			return Measurement{}, nil, err // the protocol is checked when it is known
		}
	} else if algo == AlgorithmCollNet {
		if err := collNetFits(op, ProtocolNone, o, cfg, gpus); err != nil {
			return Measurement{}, nil, err
		}
	} else if algo != "auto" {
		if _, err := collective.Resolve(op, algo, cfg, alpha, bw); err != nil {
			return Measurement{}, nil, err
		}
		if err := directFits(t, op, algo, gpus); err != nil {
			return Measurement{}, nil, err
		}
	}
	if algo == "auto" || proto == ProtocolAuto {
		choice, err := ChooseWith(t, op, algo, o, cfg, gpus)
		if err != nil {
			return Measurement{}, nil, err
		}
		m.Algorithm, m.Protocol, m.Why = choice.Picked(), choice.PickedProtocol(), choice.Reason()
	}
	seen, err := protocolView(t, m.Protocol)
	if err != nil {
		return Measurement{}, nil, err
	}
	if m.Algorithm == AlgorithmNVLS {
		if err := nvlsFits(t, op, m.Protocol, o, gpus); err != nil {
			return Measurement{}, nil, err
		}
	}
	switch {
	case m.Algorithm == "ring":
		m.Channels = cfg.Channels
	case m.Algorithm == "tree" && cfg.Nodes > 1 && cfg.PerNode > 1:
		m.Channels = collective.TreeChannels(cfg.PerNode, cfg.Channels)
	}
	if m.Fidelity, err = pickFidelity(fidelity, n); err != nil {
		return Measurement{}, nil, err
	}
	if m.Algorithm == AlgorithmNVLS || m.Algorithm == AlgorithmCollNet {
		m.Fidelity = taskgraph.Analytic // the switch is a party to every transfer: no schedule
	}
	if m.Algorithm == AlgorithmCollNet {
		if err := collNetFits(op, m.Protocol, o, cfg, gpus); err != nil {
			return Measurement{}, nil, err
		}
	}
	tl, err := runAt(seen, op, m.Algorithm, cfg, gpus, m.Fidelity, o)
	if err != nil {
		return Measurement{}, nil, err
	}
	c := tl.Collectives[0]
	m.Time = c.End - c.Start
	if m.Time > 0 {
		m.AlgBW = units.Bandwidth(float64(cfg.Bytes) / m.Time.Seconds())
		m.BusBW = m.AlgBW * units.Bandwidth(collective.BusBWFactor(op, n))
	}
	return m, tl, nil
}

// pickFidelity resolves taskgraph.Auto by the rank count.
func pickFidelity(fidelity string, n int) (string, error) {
	switch fidelity {
	case taskgraph.Auto:
		if n > taskgraph.AutoDetailedRanks {
			return taskgraph.Analytic, nil
		}
		return taskgraph.Detailed, nil
	case taskgraph.Detailed, taskgraph.Analytic:
		return fidelity, nil
	}
	return "", fmt.Errorf("run: fidelity %q; want %s, %s or %s", fidelity, taskgraph.Detailed, taskgraph.Analytic, taskgraph.Auto)
}

// runAt runs op/algo (resolved) at a fidelity: every message on the links,
// or one span of the closed form's length.
func runAt(t *topo.Topology, op, algo string, cfg collective.Config, gpus []int, fidelity string, o Options) (*timeline.Timeline, error) {
	title := fmt.Sprintf("%s %s on %d GPUs, %v", algo, op, len(gpus), cfg.Bytes)
	if fidelity == taskgraph.Detailed {
		sch, err := collective.New(op, algo, cfg)
		if err != nil {
			return nil, err
		}
		return Collective(t, sch, gpus, title)
	}
	secs, err := predict(t, op, algo, ProtocolNone, Options{NVLS: true, SHARP: o.SHARP}, cfg, gpus)
	if err != nil {
		return nil, err
	}
	return CollectiveAnalytic(t, op, algo, cfg.Bytes, gpus, max(1, units.Round(secs)), title)
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
	return analyticTimeline(t, op, algo, bytes, gpus, d, title)
}

// analyticTimeline is CollectiveAnalytic's timeline, for GPUs and a
// duration d > 0 known to be valid.
func analyticTimeline(t *topo.Topology, op, algo string, bytes units.Bytes, gpus []int, d units.Time, title string) (*timeline.Timeline, error) {
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
