package strategy

import (
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
