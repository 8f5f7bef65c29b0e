package nccltest

import (
	"fmt"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/topo"
)

// AlgorithmTorus is collective.TorusSchedule on a TPU slice: a
// bidirectional ring per torus axis, all the spanned axes at once. It is
// what "auto" takes on a slice for the operations it does (torusOp).
const AlgorithmTorus = "torus"

// torusOp reports whether op has a torus schedule.
func torusOp(op string) bool {
	return op == "all_gather" || op == "reduce_scatter" || op == "all_reduce"
}

// onSlice is the algorithm s runs: "auto" on a TPU slice is the torus
// collective when its op has one.
func onSlice(s scenario.Scenario) string {
	if _, ok := s.Slice(); ok && s.Collective.Algorithm == "auto" && torusOp(s.Collective.Op) {
		return AlgorithmTorus
	}
	return s.Collective.Algorithm
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

// checkTorus reports, as collective.algorithm or collective.axes, why s's
// torus collective cannot run: it needs one TPU slice and an operation it
// does; collective.axes needs a slice.
func checkTorus(s *scenario.Scenario, bad scenario.Reporter) {
	c := s.Collective
	sl, ok := s.Slice()
	if c.Axes != "" && !ok {
		bad("collective.axes", "needs a TPU slice (cluster.topology)")
	}
	if !ok {
		if c.Algorithm == AlgorithmTorus {
			bad("collective.algorithm", "torus runs on a TPU slice: set cluster.gpu to a TPU and cluster.topology, e.g. 4x4")
		}
		return
	}
	if _, err := sl.Check(); err != nil {
		return // the cluster's checks report it
	}
	algo := onSlice(*s)
	switch {
	case algo == AlgorithmTorus && sl.Slices > 1:
		bad("collective.algorithm", "torus runs inside one slice; the data-centre network between %d slices is not modelled for it yet (use ring, or cluster.slices 1)", sl.Slices)
	case c.Axes != "" && algo != AlgorithmTorus:
		bad("collective.axes", "is read by the torus algorithm only, not %s; set collective.algorithm to torus or auto", algo)
	case algo == AlgorithmTorus:
		if _, err := TorusGrid(*s); err != nil {
			key, msg, _ := strings.Cut(err.Error(), ": ")
			bad(key, "%s", msg)
		}
	}
}

// torusPlan is Plan for the torus collective.
func torusPlan(s scenario.Scenario, t *topo.Topology) (Planned, error) {
	g, err := TorusGrid(s)
	if err != nil {
		return Planned{}, err
	}
	sch, err := collective.TorusSchedule(collective.Op(s.Collective.Op), g, s.Collective.Size)
	if err != nil {
		return Planned{}, fmt.Errorf("collective: %w", err)
	}
	return Planned{Schedule: sch, Protocol: ProtocolNone, Topology: t}, nil
}
