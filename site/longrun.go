package site

import (
	"fmt"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// longRunMetrics is the caption of a scenario that sets failures.duration:
// the long run's failures and goodput, computed at build time by package
// fault on the simulated iteration. Under checkpoint-restart the
// simulated goodput stands beside Daly's closed form at the same interval
// (Daly 2006); under another policy, beside checkpoint-restart's own run
// with the same failures. Young's √(2·C·MTBF) closes the line.
func longRunMetrics(s scenario.Scenario) ([]strategy.Part, error) {
	l, err := training.NewLong(s, s.Failures.Duration, 0)
	if err != nil {
		return nil, fmt.Errorf("long run: %w", err)
	}
	rep, err := l.Run()
	if err != nil {
		return nil, fmt.Errorf("long run: %w", err)
	}
	rc := l.Config.Recovery
	wall := strategy.Value{V: float64(rep.Wall), Unit: strategy.Days}
	perHour := strategy.Value{V: rep.FailuresPerHour, Unit: strategy.Fixed2}
	goodput := strategy.Value{V: rep.Goodput, Unit: strategy.Percent, Role: strategy.Simulated}
	human := func(t units.Time) strategy.Value { return strategy.Value{V: float64(t), Unit: strategy.Human} }
	var head strategy.Part
	if rc.Policy == fault.CheckpointRestart {
		daly := fault.DalyGoodput(rc.CheckpointInterval, rc.CheckpointCost, rc.HeartbeatTimeout+rc.RestartCost, rep.MTBF)
		head = strategy.Part{Text: "{} run: {} failures ({}/h), goodput {}; Daly's closed form {} at τ = {}",
			Values: []strategy.Value{wall, whole(rep.Failures), perHour, goodput, {V: daly, Unit: strategy.Percent, Role: strategy.Expected}, human(rc.CheckpointInterval)},
			Check:  &strategy.Check{Name: "goodput", Formula: "Daly's goodput", Source: "Daly 2006; an estimate to first order in the interval over the MTBF", Tolerance: 0.02}}
	} else {
		cr := l.Config
		cr.Recovery.Policy = fault.CheckpointRestart
		base, err := fault.Run(cr)
		if err != nil {
			return nil, fmt.Errorf("long run: %w", err)
		}
		head = strategy.Figure("{} run: {} failures ({}/h), goodput {} under "+rc.Policy+", {} under checkpoint-restart (τ = {})",
			wall, whole(rep.Failures), perHour, goodput, strategy.Value{V: base.Goodput, Unit: strategy.Percent}, human(rc.CheckpointInterval))
	}
	return []strategy.Part{head, strategy.Figure("MTBF {}; Young √(2·C·MTBF) = {}", human(rep.MTBF), human(rep.YoungInterval))}, nil
}

// days prints a long duration in days: "30-day".
func days(t units.Time) string {
	d := t.Seconds() / 86400
	if d == float64(int(d)) {
		return fmt.Sprintf("%d-day", int(d))
	}
	return fault.Human(t)
}
