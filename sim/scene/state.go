package scene

import (
	"slices"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// State is what a GPU is doing at an instant, as the scene colours it.
type State uint8

// The states of a GPU, in the order StateAt checks them: a GPU that computes
// while its links carry data counts as computing.
const (
	// Idle: no compute span and no transfer from or to the GPU is active.
	Idle State = iota
	// Forward: a forward compute span is active.
	Forward
	// Backward: a backward compute span is active.
	Backward
	// Communicating: no compute, but a transfer from or to the GPU is active.
	Communicating
	// Done: the run has ended (t is at or after the timeline's End).
	Done
)

// String returns the lower-case name of the state, e.g. "forward".
func (s State) String() string {
	switch s {
	case Idle:
		return "idle"
	case Forward:
		return "forward"
	case Backward:
		return "backward"
	case Communicating:
		return "communicating"
	case Done:
		return "done"
	}
	return "unknown"
}

// StateAt returns what GPU gpu is doing at instant t. Spans and transfers are
// half-open: active when Start <= t < End. A span of any kind other than
// Backward counts as Forward. A collective that has no transfers (the
// analytic fidelity records one span per collective) keeps the GPUs in its
// GPUs list Communicating during [Start, End). An unknown GPU (or a nil
// timeline) is Idle.
func StateAt(tl *timeline.Timeline, gpu int, t units.Time) State {
	if tl == nil || gpu < 0 || gpu >= len(tl.GPUs) {
		return Idle
	}
	if t >= tl.End {
		return Done
	}
	for i := range tl.Spans {
		s := &tl.Spans[i]
		if s.GPU == gpu && s.Start <= t && t < s.End {
			return spanState(s.Kind)
		}
	}
	for i := range tl.Transfers {
		x := &tl.Transfers[i]
		if (x.Src == gpu || x.Dst == gpu) && x.Start <= t && t < x.End {
			return Communicating
		}
	}
	for _, c := range spanCollectives(tl) {
		if c.Start <= t && t < c.End && slices.Contains(c.GPUs, gpu) {
			return Communicating
		}
	}
	return Idle
}

// spanCollectives lists the collectives that no transfer belongs to: those
// recorded as a single span (the analytic fidelity), which the scene shows
// as their GPUs communicating from Start to End.
func spanCollectives(tl *timeline.Timeline) []*timeline.Collective {
	if len(tl.Collectives) == 0 {
		return nil
	}
	moved := make([]bool, len(tl.Collectives))
	for i := range tl.Transfers {
		if c := tl.Transfers[i].Collective; c >= 0 && c < len(moved) {
			moved[c] = true
		}
	}
	var out []*timeline.Collective
	for i := range tl.Collectives {
		if !moved[i] {
			out = append(out, &tl.Collectives[i])
		}
	}
	return out
}

func spanState(k timeline.Kind) State {
	if k == timeline.Backward {
		return Backward
	}
	return Forward
}

// activity is a GPU's state plus whether it is the sender of an active
// transfer, which picks the label "sending" or "receiving".
type activity struct {
	state   State
	sending bool
	// whole is set when the GPU takes part in a collective recorded as one
	// span, where neither direction is known.
	whole bool
}

// activities computes every GPU's activity at t in one pass over the spans
// and transfers, agreeing with StateAt GPU by GPU.
func activities(tl *timeline.Timeline, t units.Time) []activity {
	acts := make([]activity, len(tl.GPUs))
	if t >= tl.End {
		for i := range acts {
			acts[i].state = Done
		}
		return acts
	}
	n := len(acts)
	for i := range tl.Spans {
		s := &tl.Spans[i]
		if s.GPU >= 0 && s.GPU < n && acts[s.GPU].state == Idle && s.Start <= t && t < s.End {
			acts[s.GPU].state = spanState(s.Kind)
		}
	}
	for i := range tl.Transfers {
		x := &tl.Transfers[i]
		if !(x.Start <= t && t < x.End) {
			continue
		}
		if x.Src >= 0 && x.Src < n {
			acts[x.Src].sending = true
			communicate(&acts[x.Src])
		}
		if x.Dst >= 0 && x.Dst < n {
			communicate(&acts[x.Dst])
		}
	}
	for _, c := range spanCollectives(tl) {
		if c.Start <= t && t < c.End {
			for _, g := range c.GPUs {
				if g >= 0 && g < n {
					communicate(&acts[g])
					acts[g].whole = true
				}
			}
		}
	}
	return acts
}

func communicate(a *activity) {
	if a.state == Idle {
		a.state = Communicating
	}
}

// label is the second line of text in a GPU's box.
func (a activity) label() string {
	if a.state == Communicating {
		switch {
		case a.sending:
			return "sending"
		case a.whole:
			return "collective"
		}
		return "receiving"
	}
	return a.state.String()
}
