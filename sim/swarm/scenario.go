package swarm

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Name is the strategy key's value of SWARM parallelism.
const Name = "swarm"

// section is the key of the scenario's swarm section.
const section = "swarm"

// Limits of the swarm section.
const (
	MaxStages       = 16
	MaxMicrobatches = 4096
	MaxPeers        = 64
)

// Settings is the swarm section of a scenario.
type Settings struct {
	// Stages is the number of model stages, 2..MaxStages, at most the peers.
	Stages int
	// Microbatches is the microbatches the run trains, 1..MaxMicrobatches.
	Microbatches int
	// Skip is how many stages each microbatch's path skips (SkipPipe),
	// 0..Stages−2; stage 0 is never skipped.
	Skip int
	// Rebalance is how often peers compare stage rates and one may move,
	// 0 (never) or 1ms..1h.
	Rebalance units.Time
	// Activation is the bytes a microbatch sends between stages, each way,
	// 0..1GiB.
	Activation units.Bytes
	// StageBytes is a stage's parameters, which a moving peer downloads,
	// 0..100GiB.
	StageBytes units.Bytes
}

// DefaultSettings is four stages, 64 microbatches, no rebalancing, 4 MiB
// of activations and 1 GiB of parameters a stage.
func DefaultSettings() Settings {
	return Settings{Stages: 4, Microbatches: 64, Activation: 4 * units.MiB, StageBytes: units.GiB}
}

// Edit changes s's swarm section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }

// SettingsOf is s's swarm section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

var rows = []scenario.Row{
	{Key: "stages", Param: "swarm_stages", Field: "Stages"},
	{Key: "microbatches", Param: "swarm_mb", Field: "Microbatches"},
	{Key: "skip", Param: "swarm_skip", Help: "stages each microbatch skips, e.g. 2", Field: "Skip"},
	{Key: "rebalance", Param: "rebalance", Help: "e.g. 5s, 0 = never", Field: "Rebalance"},
	{Key: "activation", Param: "swarm_act", Help: "e.g. 4MiB", Field: "Activation"},
	{Key: "stage_bytes", Param: "stage_bytes", Help: "e.g. 1GiB", Field: "StageBytes"},
}

// Strategy is SWARM parallelism as a strategy of the scenario.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the swarm section; the peers' speeds are sync.speeds and
// their failures the faults section.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}},
		Uses: []string{"sync.speeds", "faults"}, Claims: []string{section}, MinGPUs: 2, MaxGPUs: MaxPeers}
}

// Check checks the swarm section, the speeds and the faults' kinds.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	y := SettingsOf(s)
	s.CheckSync(bad, nil, false)
	for _, c := range [...]struct {
		key, unit string
		v, lo, hi int64
	}{
		{"swarm.stages", "", int64(y.Stages), 2, int64(min(MaxStages, max(s.NumGPUs(), 2)))},
		{"swarm.microbatches", "", int64(y.Microbatches), 1, MaxMicrobatches},
		{"swarm.skip", "", int64(y.Skip), 0, int64(max(y.Stages-2, 0))},
		{"swarm.rebalance", " ns", int64(y.Rebalance), int64(units.Millisecond), int64(3600 * units.Second)},
		{"swarm.activation", " bytes", int64(y.Activation), 0, int64(units.GiB)},
		{"swarm.stage_bytes", " bytes", int64(y.StageBytes), 0, 100 * int64(units.GiB)},
	} {
		// swarm.rebalance may also be 0, never.
		if (c.v < c.lo || c.v > c.hi) && (c.v != 0 || c.unit != " ns") {
			bad(c.key, "is %d%s; allowed %d..%d%s", c.v, c.unit, c.lo, c.hi, c.unit)
		}
	}
	for _, f := range s.Faults {
		if f.Kind != scenario.FailStop {
			bad("faults", "has a %s; a swarm's peers fail only with fail_stop", f.Kind)
		}
	}
}

// Title is e.g. "SWARM: 8 peers, 4 stages".
func (Strategy) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("SWARM: %d peers, %d stages", s.NumGPUs(), SettingsOf(s).Stages)
}

// Describe is e.g. "64 microbatches through 4 stages of 8 peers,
// rebalancing every 5s (0s: never)".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := SettingsOf(s)
	return fmt.Sprintf("%d microbatches through %d stages of %d peers, rebalancing every %v (0s: never)", y.Microbatches, y.Stages, s.NumGPUs(), y.Rebalance)
}
