//go:build js

package opgraph

import (
	"errors"

	"paraplay/sim/hw"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
)

// errHybrid is the browser's answer to a hybrid split (hybrid.go).
var errHybrid = errors.New("graph.split: is hybrid, which runs on the host only (paraplay run); allowed in the browser data, model")

func (Run) checkHybrid(Graph) error { return errHybrid }

func simulateHybrid(Graph, Run, hw.GPU, scenario.Scenario) (*timeline.Timeline, error) {
	return nil, errHybrid
}

// topology is base's one server of GPUs: the browser has no free network
// (cluster.network ideal, hybrid.go), which the cluster's builder refuses.
func topology(base scenario.Scenario) (*topo.Topology, error) { return nccltest.Topology(base) }
