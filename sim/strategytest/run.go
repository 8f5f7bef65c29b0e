package strategytest

import (
	"os"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// Simulate is a strategy's Simulate: it takes a valid scenario.
type Simulate func(scenario.Scenario) (*timeline.Timeline, error)

// Run validates s, as run.Simulate does, then simulates it.
func Run(simulate Simulate, s scenario.Scenario) (*timeline.Timeline, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return simulate(s)
}

// MustRun is Run that fails t on an error or on a timeline that does not
// pass timeline.Validate.
func MustRun(t testing.TB, simulate Simulate, s scenario.Scenario) *timeline.Timeline {
	t.Helper()
	tl, err := Run(simulate, s)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	if err := tl.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return tl
}

// Register makes the kinds known to package scenario, once each, for the
// tests of a strategy's own package: they cannot import the registry in
// package run, which imports them.
func Register(kinds ...scenario.Kind) {
	for _, k := range kinds {
		if _, _, ok := scenario.KindOf(k.Name()); !ok {
			scenario.Register(k)
		}
	}
}

// Load reads and parses the scenario file, failing tb on an error.
func Load(tb testing.TB, file string) scenario.Scenario {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
