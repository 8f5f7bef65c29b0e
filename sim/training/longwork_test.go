package training

import (
	"testing"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/units"
)

// TestLongWorkBoundsThePhases holds LongWork's bound on a long run's
// phases to the replay's: at least as many, at most ten times, over the
// week of weekFile with its settings changed (more failures, shorter
// intervals, every policy).
func TestLongWorkBoundsThePhases(t *testing.T) {
	base := strategytest.Load(t, weekFile)
	for _, c := range []struct {
		name     string
		edit     func(s *scenario.Scenario)
		duration units.Time
	}{
		{"week", func(*scenario.Scenario) {}, 7 * fault.Day},
		{"5 failures a node-day", func(s *scenario.Scenario) { s.Failures.RatePerNodeDay = 5 }, 7 * fault.Day},
		{"checkpoint every minute", func(s *scenario.Scenario) { s.Recovery.CheckpointInterval = 60 * units.Second }, 7 * fault.Day},
		{"checkpoint-restart", func(s *scenario.Scenario) {
			s.Recovery.Policy = scenario.PolicyCheckpointRestart
			s.Failures.RatePerNodeDay = 2
		}, 30 * fault.Day},
		{"every iteration", func(s *scenario.Scenario) { s.Recovery.CheckpointInterval = 0 }, fault.Day},
		{"replan, no failures", func(s *scenario.Scenario) { s.Recovery.Policy = scenario.PolicyReplan; s.Failures.RatePerNodeDay = 0 }, 7 * fault.Day},
	} {
		s := base
		c.edit(&s)
		l, err := NewLong(s, c.duration, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		rep, err := l.Run()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, bound := float64(len(rep.Phases)), LongWork(s, c.duration).Spans.N
		t.Logf("%s: %g phases, bound %g (%.2f×)", c.name, got, bound, bound/got)
		if bound < got || bound > 10*got {
			t.Errorf("%s: %g phases, bound %g; want phases ≤ bound ≤ 10 × phases", c.name, got, bound)
		}
	}
}
