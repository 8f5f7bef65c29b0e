package playground

import (
	"paraplay/sim/budget"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// TooLarge is the title of the error the canvas shows for a run over the
// browser's budget.
const TooLarge = "This run is too large for the browser"

// CheckBudget refuses a valid scenario whose work is over the browser's
// budget (budget.Browser), before anything runs: a long run's replay
// (training.LongWork) or a simulation's (run.Check). The error names the
// field to change and says what the budget allows.
func CheckBudget(s scenario.Scenario) error {
	if IsLongRun(s) {
		return budget.Browser.Check(training.LongWork(s, s.Failures.Duration))
	}
	return run.Check(s, budget.Browser)
}
