//go:build !js

package validate

import (
	"fmt"

	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

func simulateTPUCollective(config map[string]string) (float64, error) {
	size, err := units.ParseBytes(config["size"])
	if err != nil || size < 1 || size > 64*units.GiB {
		return 0, fmt.Errorf("config.size: %q; want bytes such as 8MiB, 1B..64GiB", config["size"])
	}
	s := scenario.Default()
	s.Strategy = nccltest.Name
	s.Cluster.GPU, s.Cluster.Topology, s.Cluster.Wraparound = config["tpu"], config["topology"], config["wraparound"]
	s.Collective.Op, s.Collective.Algorithm, s.Collective.Axes, s.Collective.Size = config["op"], nccltest.AlgorithmTorus, config["axes"], size
	if err := s.Validate(); err != nil {
		return 0, fmt.Errorf("config: %w", err)
	}
	t, err := nccltest.Topology(s)
	if err != nil {
		return 0, fmt.Errorf("config: %w", err)
	}
	g, err := nccltest.TorusGrid(s)
	if err != nil {
		return 0, fmt.Errorf("config: %w", err)
	}
	m, _, err := nccltest.MeasureTorus(t, s.Collective.Op, g, size, taskgraph.Detailed)
	if err != nil {
		return 0, fmt.Errorf("config: %w", err)
	}
	return m.Time.Seconds() * 1e6, nil
}
