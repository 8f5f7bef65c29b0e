package nccltest

import (
	"fmt"
	"strings"

	"paraplay/sim/budget"
	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/topo"
)

// torusBuilt says the torus collective is in this build.
const torusBuilt = true

// torusFits reports why s's torus collective cannot run: its grid.
func torusFits(s scenario.Scenario) error {
	_, err := TorusGrid(s)
	return err
}

// torusMessages bounds the messages of s's torus collective.
func torusMessages(s scenario.Scenario) budget.Count {
	g, err := TorusGrid(s)
	if err != nil {
		return budget.Count{}
	}
	m := max(s.Cluster.Slices, 1)
	dcn := float64(2 * (m - 1) * s.NumGPUs()) // the all-reduce's; a reduce-scatter or gather sends half
	return budget.Count{N: float64(m)*collective.TorusMessages(s.Collective.Op, g) + dcn, Field: "cluster.topology",
		Why: fmt.Sprintf("%d chips (torus %s)", s.NumGPUs(), collective.Label(s.Collective.Op)), Fix: "use a smaller slice"}
}

// TorusGrid is s's slice as the torus collectives see it: its shape, the
// axes that are rings (wraparound, and not twisted onto another ring) and
// collective.axes. s must be valid.
func TorusGrid(s scenario.Scenario) (collective.Grid, error) {
	sl, ok := s.Slice()
	if !ok {
		return collective.Grid{}, fmt.Errorf("collective.algorithm: torus needs a TPU slice (cluster.topology)")
	}
	pod, err := sl.Check()
	if err != nil {
		return collective.Grid{}, err
	}
	t := sl.Torus(pod)
	g := collective.Grid{Dims: t.Dims}
	for a := range g.Wrap {
		g.Wrap[a] = t.Wrap[a] && t.RingWraps(a)
	}
	g.Axes, err = parseAxes(s.Collective.Axes, t.Dims)
	return g, err
}

// parseAxes reads collective.axes: letters of x, y and z, each once, each
// an axis of two chips or more; empty is every such axis.
func parseAxes(text string, dims [3]int) ([3]bool, error) {
	var axes [3]bool
	for _, r := range text {
		a := strings.IndexRune("xyz", r)
		switch {
		case a < 0:
			return axes, fmt.Errorf("collective.axes: %q has %q; want letters x, y, z, e.g. xy", text, r)
		case axes[a]:
			return axes, fmt.Errorf("collective.axes: %q names %c twice", text, r)
		case dims[a] < 2:
			return axes, fmt.Errorf("collective.axes: %q names %c, which is %d chip long on this slice; want an axis of 2 or more", text, r, dims[a])
		}
		axes[a] = true
	}
	return axes, nil
}

// torusPlan is Plan for the torus collective: one slice's
// (collective.TorusSchedule), or the hierarchical one over several slices
// and their DCN (collective.TorusSlicesSchedule).
func torusPlan(s scenario.Scenario, t *topo.Topology) (Planned, error) {
	g, err := TorusGrid(s)
	if err != nil {
		return Planned{}, err
	}
	sch, err := collective.TorusSlicesSchedule(collective.Op(s.Collective.Op), g, max(s.Cluster.Slices, 1), s.Collective.Size)
	if err != nil {
		return Planned{}, fmt.Errorf("collective: %w", err)
	}
	return Planned{Schedule: sch, Protocol: ProtocolNone, Topology: t}, nil
}
