//go:build js

package training

import (
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// The browser leaves the spine's closed form out (moe_spine.go): the
// links between switches bind only on an oversubscribed fat tree, which
// checkSpine refuses with expert parallelism in the browser.

type trunkUse struct{}

func (tr *iteration) trunks([]int) [][]trunkUse { return nil }

func (x *exchange) spineTime([]flow, float64) units.Time { return 0 }

// checkSpine refuses an oversubscribed fat tree under expert parallelism,
// whose all-to-alls' contention the browser build does not price.
func checkSpine(s *scenario.Scenario, bad scenario.Reporter) {
	if s.Cluster.Oversubscription > 1 && s.Parallel.EP > 1 {
		bad("cluster.oversubscription", "is %g with expert parallelism, whose all-to-alls on the spine only the command-line simulator prices (paraplay run); allowed 1 in the browser", s.Cluster.Oversubscription)
	}
}
