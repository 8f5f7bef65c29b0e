package strategy

import (
	"paraplay/sim/budget"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// Strategy is one way of training or serving a model that ParaPlay
// simulates, behind the seam the rest of the program uses.
type Strategy interface {
	// Kind is the strategy's scenario half: its name, keys, checks,
	// title and description.
	scenario.Kind
	// Simulate runs s, which Validate has accepted and whose strategy is
	// this one, and returns its timeline; the timeline passes
	// timeline.Validate.
	Simulate(s scenario.Scenario) (*timeline.Timeline, error)
	// Work bounds what Simulate(s) costs (events, transfers, spans, trace
	// bytes, memory), from the fields of s alone and quickly: the budget
	// is checked at validation, before anything runs (run.Check). Its
	// formulas are documented in the strategy's package, and each count
	// names the fields behind it (package budget).
	Work(s scenario.Scenario) budget.Work
	// Captioner writes the captions of the site's demos; the browser
	// build leaves it out (see captioner).
	Captioner
}

// DemoDescriber is a Strategy whose demos describe their settings more
// fully than Describe's one line (a training demo names its model, cluster
// and plan). The site uses it for a demo's caption when a strategy has it.
type DemoDescriber interface {
	DescribeDemo(s *scenario.Scenario) string
}

// Mirroring is a Strategy that can leave a run mirrored
// (timeline.Timeline.Mirrors: some GPUs repeat others' spans, recorded
// once) for a caller that reads the timeline only through its summary
// and writers, which list every span: the command line's run, whose
// largest runs then need a fraction of the memory.
type Mirroring interface {
	SimulateMirrored(s scenario.Scenario) (*timeline.Timeline, error)
	// MirroredWork bounds what SimulateMirrored(s) costs, as Work does
	// Simulate's.
	MirroredWork(s scenario.Scenario) budget.Work
}
