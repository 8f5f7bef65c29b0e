package nccltest

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// iciLink is the α and bandwidth of a torus's ICI link (every chip-to-chip
// link of a slice is alike).
func iciLink(t *topo.Topology) (units.Time, units.Bandwidth, error) {
	for _, l := range t.Links {
		if t.IsGPU(l.From) && t.IsGPU(l.To) {
			return l.Latency, l.Bandwidth, nil
		}
	}
	return 0, 0, fmt.Errorf("collective: the slice has no chip-to-chip link")
}

// TorusTime is the closed form of s's torus collective on its slice's ICI
// links (collective.TorusTime), with the DCN ring between slices
// (collective.TorusSlicesTime) when there are several.
func TorusTime(s scenario.Scenario, t *topo.Topology) (float64, error) {
	g, err := TorusGrid(s)
	if err != nil {
		return 0, err
	}
	alpha, bw, err := iciLink(t)
	if err != nil {
		return 0, err
	}
	m := max(s.Cluster.Slices, 1)
	if m == 1 {
		return collective.TorusTime(s.Collective.Op, g, s.Collective.Size, alpha, bw), nil
	}
	da, dbw, err := DCNShare(t)
	if err != nil {
		return 0, err
	}
	return collective.TorusSlicesTime(s.Collective.Op, g, m, s.Collective.Size, alpha, bw, da, dbw), nil
}

// DCNShare is the α of the route from chip 0 to chip 0 of the next slice
// (PCIe, the host's network link, the network, PCIe) and each chip's share
// of its host's network link when all the host's chips send at once, or
// its PCIe link's bandwidth if that is smaller.
func DCNShare(t *topo.Topology) (units.Time, units.Bandwidth, error) {
	if t.Torus == nil || t.Torus.Slices < 2 {
		return 0, 0, fmt.Errorf("collective: no data-centre network between slices")
	}
	alpha, _, err := topo.NewRouter(t).PathCost(0, t.Torus.Chips())
	if err != nil {
		return 0, 0, err
	}
	var pcie, dcn units.Bandwidth
	for _, l := range t.Links {
		switch l.Kind {
		case "pcie":
			pcie = l.Bandwidth
		case "dcn":
			dcn = l.Bandwidth
		}
	}
	h := t.Torus.Host[0] * t.Torus.Host[1] * t.Torus.Host[2]
	return alpha, min(pcie, dcn/units.Bandwidth(h)), nil
}

// MeasureTorus runs the torus collective op of S bytes on grid g of the
// slice t, rank r on chip r, at fidelity (taskgraph.Detailed, Analytic or
// Auto): every message on the ICI links, or one span of the closed form.
// Its bus bandwidth counts the chips of one group (the spanned axes), as
// nccl-tests counts a communicator's ranks.
func MeasureTorus(t *topo.Topology, op string, g collective.Grid, s units.Bytes, fidelity string) (Measurement, *timeline.Timeline, error) {
	n := len(t.GPUs)
	m := Measurement{Op: op, Algorithm: AlgorithmTorus, Protocol: ProtocolNone, Ranks: n, Bytes: s}
	var err error
	if m.Fidelity, err = pickFidelity(fidelity, n); err != nil {
		return Measurement{}, nil, err
	}
	if err := g.Validate(); err != nil {
		return Measurement{}, nil, err
	}
	if g.Dims[0]*g.Dims[1]*g.Dims[2] != n {
		return Measurement{}, nil, fmt.Errorf("run: a torus of %v chips on a slice of %d", g.Dims, n)
	}
	title := fmt.Sprintf("torus %s on %d chips, %v", op, n, s)
	var tl *timeline.Timeline
	if m.Fidelity == taskgraph.Detailed {
		sch, err := collective.TorusSchedule(collective.Op(op), g, s)
		if err != nil {
			return Measurement{}, nil, err
		}
		tl, err = Collective(t, sch, taskgraph.Identity(n), title)
	} else {
		alpha, bw, err := iciLink(t)
		if err != nil {
			return Measurement{}, nil, err
		}
		secs := collective.TorusTime(op, g, s, alpha, bw)
		tl, err = CollectiveAnalytic(t, op, AlgorithmTorus, s, taskgraph.Identity(n), max(1, units.Round(secs)), title)
	}
	if err != nil {
		return Measurement{}, nil, err
	}
	c := tl.Collectives[0]
	m.Time = c.End - c.Start
	if m.Time > 0 {
		m.AlgBW = units.Bandwidth(float64(s) / m.Time.Seconds())
		m.BusBW = m.AlgBW * units.Bandwidth(collective.BusBWFactor(op, g.Group()))
	}
	return m, tl, nil
}
