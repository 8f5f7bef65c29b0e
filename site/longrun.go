package site

import (
	"fmt"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// longRunMetrics is the caption of a scenario that sets failures.duration:
// the long run's failures and goodput, computed at build time by package
// fault on the simulated iteration. Under checkpoint-restart the
// simulated goodput stands beside Daly's closed form at the same interval
// (Daly 2006); under another policy, beside checkpoint-restart's own run
// with the same failures. Young's √(2·C·MTBF) closes the line.
func longRunMetrics(s scenario.Scenario) (string, error) {
	l, err := training.NewLong(s, s.Failures.Duration, 0)
	if err != nil {
		return "", fmt.Errorf("long run: %w", err)
	}
	rep, err := l.Run()
	if err != nil {
		return "", fmt.Errorf("long run: %w", err)
	}
	rc := l.Config.Recovery
	head := fmt.Sprintf("%s run: %d failures (%.2f/h), goodput %s", days(rep.Wall), rep.Failures, rep.FailuresPerHour, pct(rep.Goodput))
	var compare string
	if rc.Policy == fault.CheckpointRestart {
		daly := fault.DalyGoodput(rc.CheckpointInterval, rc.CheckpointCost, rc.HeartbeatTimeout+rc.RestartCost, rep.MTBF)
		compare = fmt.Sprintf("; Daly's closed form %s at τ = %s", pct(daly), fault.Human(rc.CheckpointInterval))
	} else {
		cr := l.Config
		cr.Recovery.Policy = fault.CheckpointRestart
		base, err := fault.Run(cr)
		if err != nil {
			return "", fmt.Errorf("long run: %w", err)
		}
		compare = fmt.Sprintf(" under %s, %s under checkpoint-restart (τ = %s)", rc.Policy, pct(base.Goodput), fault.Human(rc.CheckpointInterval))
	}
	return fmt.Sprintf("%s%s · MTBF %s; Young √(2·C·MTBF) = %s", head, compare, fault.Human(rep.MTBF), fault.Human(rep.YoungInterval)), nil
}

// days prints a long duration in days: "30-day".
func days(t units.Time) string {
	d := t.Seconds() / 86400
	if d == float64(int(d)) {
		return fmt.Sprintf("%d-day", int(d))
	}
	return fault.Human(t)
}
