package nccltest

import (
	"strings"

	"paraplay/sim/scenario"
)

// AlgorithmTorus is collective.TorusSchedule on a TPU slice: a
// bidirectional ring per torus axis, all the spanned axes at once. It is
// what "auto" takes on a slice for the operations it does (torusOp). The
// torus schedules, their closed forms and their checks are in
// torus_host.go.
const AlgorithmTorus = "torus"

// torusOp reports whether op has a torus schedule.
func torusOp(op string) bool {
	return op == "all_gather" || op == "reduce_scatter" || op == "all_reduce"
}

// onSlice is the algorithm s runs: "auto" on a TPU slice is the torus
// collective when its op has one.
func onSlice(s scenario.Scenario) string {
	if _, ok := s.Slice(); ok && torusBuilt && s.Collective.Algorithm == "auto" && torusOp(s.Collective.Op) {
		return AlgorithmTorus
	}
	return s.Collective.Algorithm
}

// CheckTorus reports, as collective.algorithm or collective.axes, why s's
// torus collective cannot run: it needs one TPU slice and an operation it
// does; collective.axes needs a slice.
func CheckTorus(s *scenario.Scenario, bad scenario.Reporter) {
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
	case c.Axes != "" && algo != AlgorithmTorus:
		bad("collective.axes", "is read by the torus algorithm only, not %s; set collective.algorithm to torus or auto", algo)
	case algo == AlgorithmTorus:
		if err := torusFits(*s); err != nil {
			key, msg, _ := strings.Cut(err.Error(), ": ")
			bad(key, "%s", msg)
		}
	}
}
