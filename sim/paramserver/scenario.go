package paramserver

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
)

// Name is the strategy key's value of a parameter server: workers pull
// the model from parameter servers, compute, and push their gradients
// back, for iterations iterations, synchronised as sync.mode says (bsp,
// asp, ssp, dssp).
const Name = "parameter-server"

// Strategy is the parameter server as a strategy of the scenario: it
// reads the sync, compression and straggler sections.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the shared sections a parameter server reads; its
// gradients are summed, so its collective is an all-reduce.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Uses: []string{"sync", "compression.ratio", "compression.time_per_mib", "compression.method", "straggler"}, Op: "all_reduce"}
}

// Check checks the sync section, sync.mode included.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	s.CheckSync(bad, scenario.SyncModes, false)
}

// Title is e.g. "Parameter server (SSP) with 4 workers".
func (Strategy) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("Parameter server (%s) with %d workers", strings.ToUpper(s.Sync.Mode), s.NumGPUs())
}

// Describe is e.g. "4 workers, 1 parameter server(s), SSP (s = 2), 8
// iterations of a 256MiB model".
func (Strategy) Describe(s *scenario.Scenario) string {
	var b strings.Builder
	y := s.Sync
	fmt.Fprintf(&b, "%d workers, %d parameter server(s), %s", s.NumGPUs(), y.Servers, strings.ToUpper(y.Mode))
	switch y.Mode {
	case scenario.SyncSSP:
		fmt.Fprintf(&b, " (s = %d)", y.Staleness)
	case scenario.SyncDSSP:
		fmt.Fprintf(&b, " (s from %d to %d)", y.Staleness, y.Staleness+y.StalenessRange)
	}
	return b.String() + s.DescribeIterations()
}
