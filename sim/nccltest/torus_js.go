//go:build js

package nccltest

import (
	"errors"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
	"paraplay/sim/topo"
)

// torusBuilt says the torus collective is left out of the browser build.
const torusBuilt = false

var errTorusCLI = errors.New("collective.algorithm: torus runs in the command line (paraplay run, paraplay collective --topology); the browser build leaves it out")

func torusFits(scenario.Scenario) error                            { return errTorusCLI }
func torusMessages(scenario.Scenario) budget.Count                 { return budget.Count{} }
func torusPlan(scenario.Scenario, *topo.Topology) (Planned, error) { return Planned{}, errTorusCLI }
