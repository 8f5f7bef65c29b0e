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
	// Caption lists the parts of the line of key numbers under a demo of
	// s: figures of the run tl (summarised as sum), and each closed form
	// the strategy knows beside the figure it predicts.
	Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]Part, error)
}

// DemoDescriber is a Strategy whose demos describe their settings more
// fully than Describe's one line (a training demo names its model, cluster
// and plan). The site uses it for a demo's caption when a strategy has it.
type DemoDescriber interface {
	DescribeDemo(s *scenario.Scenario) string
}
