package scene

import (
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
// Backward counts as Forward. An unknown GPU (or a nil timeline) is Idle.
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
	return Idle
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
		if a.sending {
			return "sending"
		}
		return "receiving"
	}
	return a.state.String()
}
