package run

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// Simulate runs the scenario under the command line's default budget
// (budget.CLI) and returns its timeline: SimulateWithin.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	return SimulateWithin(s, budget.CLI)
}

// SimulateWithin runs the scenario and returns its timeline: it validates
// s and holds its work to the budget l (Check), then hands it to its
// strategy (Lookup). The result passes timeline.Validate.
func SimulateWithin(s scenario.Scenario, l budget.Limits) (*timeline.Timeline, error) {
	if err := Check(s, l); err != nil {
		return nil, err
	}
	st, _ := Lookup(s.Strategy) // Check refuses a strategy no one registered
	return st.Simulate(s)
}

// SimulateMirroredWithin is SimulateWithin for a caller that reads the
// timeline only through its summary and writers (Summarize,
// WriteChromeTrace, timeline.WriteJSON; AllSpans for the spans): a strategy that
// can mirror identical replicas (strategy.Mirroring) leaves the timeline
// mirrored, which those list in full.
func SimulateMirroredWithin(s scenario.Scenario, l budget.Limits) (*timeline.Timeline, error) {
	if err := CheckMirrored(s, l); err != nil {
		return nil, err
	}
	st, _ := Lookup(s.Strategy) // CheckMirrored refuses a strategy no one registered
	if m, ok := st.(strategy.Mirroring); ok {
		return m.SimulateMirrored(s)
	}
	return st.Simulate(s)
}

// CheckMirrored is Check for SimulateMirroredWithin: a strategy that
// mirrors is held to its MirroredWork.
func CheckMirrored(s scenario.Scenario, l budget.Limits) error {
	st, ok := Lookup(s.Strategy)
	m, mirroring := st.(strategy.Mirroring)
	if !ok || !mirroring {
		return Check(s, l)
	}
	if err := s.Validate(); err != nil {
		return err
	}
	return l.Check(m.MirroredWork(s))
}

// Check validates s and refuses it when its strategy's bound on the work
// (Work) is over the budget l: a *scenario.FieldError that names the
// fields driving the work and what to change. It runs nothing.
func Check(s scenario.Scenario, l budget.Limits) error {
	w, err := Work(s)
	if err != nil {
		return err
	}
	return l.Check(w)
}

// Work validates s and returns its strategy's bound on what simulating it
// costs (strategy.Strategy's Work).
func Work(s scenario.Scenario) (budget.Work, error) {
	if err := s.Validate(); err != nil {
		return budget.Work{}, err
	}
	st, ok := Lookup(s.Strategy)
	if !ok { // Validate refuses a strategy no one registered
		return budget.Work{}, fmt.Errorf("strategy: %q is not registered", s.Strategy)
	}
	return st.Work(s), nil
}
