package taskgraph

import (
	"cmp"
	"fmt"
	"slices"

	"paraplay/sim/timeline"
	"paraplay/sim/topo"
)

// NewTimeline starts the record of a run on t: its GPUs, switches and
// links, at Detailed fidelity.
func NewTimeline(t *topo.Topology, title string) *timeline.Timeline {
	tl := &timeline.Timeline{Title: title, Fidelity: Detailed}
	for _, gpu := range t.GPUs {
		tl.GPUs = append(tl.GPUs, timeline.GPU{ID: gpu.ID, Name: gpu.Name, Node: gpu.Node, Role: gpu.Role})
	}
	for _, sw := range t.Switches {
		tl.Switches = append(tl.Switches, timeline.Switch{ID: sw.ID, Name: sw.Name, Kind: sw.Kind, Node: sw.Node})
	}
	for _, l := range t.Links {
		tl.Links = append(tl.Links, timeline.Link{ID: l.ID, From: l.From, To: l.To, Bandwidth: l.Bandwidth, Latency: l.Latency})
	}
	return tl
}

// Run plays the graph from time 0 and completes its timeline: its End,
// the spans in order of start (then GPU), each detailed collective's
// record from its messages. It returns the first error a message met, or
// one given to Fail. The timeline is not validated (Check, Finish).
func (g *Graph) Run() (*timeline.Timeline, error) {
	tl := g.out
	tl.End = g.execute()
	tl.Events = g.eng.Fired()
	if g.failed != nil {
		return nil, g.failed
	}
	g.completeCollectives()
	// Transfers are recorded when they start, so they are in order
	// already.
	slices.SortStableFunc(tl.Spans, func(a, b timeline.Span) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU))
	})
	return tl, nil
}

// Finish is Run, then Check of the timeline (for the strategy who):
// every run is validated.
func (g *Graph) Finish(who string) (*timeline.Timeline, error) {
	tl, err := g.Run()
	if err != nil {
		return nil, err
	}
	if err := Check(tl, who); err != nil {
		return nil, err
	}
	return tl, nil
}

// Play is what a strategy that keeps its own record of the run does: Run,
// then record (which reads the finished graph into the timeline), then
// Check (for the strategy who).
func (g *Graph) Play(who string, record func()) (*timeline.Timeline, error) {
	tl, err := g.Run()
	if err != nil {
		return nil, err
	}
	record()
	if err := Check(tl, who); err != nil {
		return nil, err
	}
	return tl, nil
}

// Check validates a finished timeline; a failure is a bug of the
// strategy that laid out the run (named by who), not of its input.
func Check(tl *timeline.Timeline, who string) error {
	if err := tl.Validate(); err != nil {
		return fmt.Errorf("%s: internal error, the timeline is inconsistent: %w", who, err)
	}
	return nil
}
