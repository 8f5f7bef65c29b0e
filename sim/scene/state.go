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
	// BackwardWeight: the weight-gradient half (W) of a split backward.
	BackwardWeight
	// Optimizer: the optimizer step.
	Optimizer
	// Compressing: encoding or decoding compressed traffic (compute, but
	// not the model's).
	Compressing
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
	case BackwardWeight:
		return "backward-weight"
	case Optimizer:
		return "optimizer"
	case Compressing:
		return "compressing"
	}
	return "unknown"
}

// StateAt returns what GPU gpu is doing at instant t. Spans and transfers are
// half-open: active when Start <= t < End. A span's kind names the state
// (forward, backward, backward-weight, optimizer, compressing); the communication spans
// that block the compute stream (tp-, cp-, ep-comm) count as Communicating,
// and a span of an unknown kind as Forward. SpanAt returns the span itself,
// whose Label ("F3") says which microbatch. A collective that has no transfers (the
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
	if s, ok := SpanAt(tl, gpu, t); ok {
		return spanState(s.Kind)
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
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

// SpanAt returns the span active on GPU gpu's compute stream at instant t
// (the first in Timeline.Spans, which are sorted by start), and false when
// none is, the run has ended, or gpu is unknown.
func SpanAt(tl *timeline.Timeline, gpu int, t units.Time) (timeline.Span, bool) {
	if tl == nil || gpu < 0 || gpu >= len(tl.GPUs) || t >= tl.End {
		return timeline.Span{}, false
	}
	for i := range tl.Spans {
		s := &tl.Spans[i]
		if s.Start > t {
			break
		}
		if s.GPU == gpu && t < s.End {
			return *s, true
		}
	}
	return timeline.Span{}, false
}

// spanCollectives lists the collectives that no transfer belongs to: those
// recorded as a single span (the analytic fidelity), which the scene shows
// as their GPUs communicating from Start to End.
func spanCollectives(tl *timeline.Timeline) []*timeline.Collective {
	if len(tl.Collectives) == 0 {
		return nil
	}
	moved := make([]bool, len(tl.Collectives))
	for i := range tl.Transfers.Len() {
		if c := tl.Transfers.At(i).Collective; c >= 0 && c < len(moved) {
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
	switch {
	case k == timeline.Backward:
		return Backward
	case k == timeline.BackwardWeight:
		return BackwardWeight
	case k == timeline.Optimizer:
		return Optimizer
	case k == timeline.Compress:
		return Compressing
	case k.IsCommunication():
		return Communicating
	case k == timeline.Host:
		return Idle // the GPU waits for its CPU
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
	// span is the compute-stream span active at t, if any.
	span *timeline.Span
}

// activities computes every GPU's activity at t in one pass over the spans
// and transfers, agreeing with StateAt GPU by GPU; colls are the
// timeline's spanCollectives.
func activities(tl *timeline.Timeline, t units.Time, colls []*timeline.Collective) []activity {
	return activitiesOf(nil, tl, t, colls, spansLive(tl, t), inFlight(tl, t))
}

// activitiesOf is activities given the spans and the transfers live at t
// (ascending indices), reusing buf's storage.
func activitiesOf(buf []activity, tl *timeline.Timeline, t units.Time, colls []*timeline.Collective, spans, live []int32) []activity {
	acts := buf[:0]
	if cap(acts) < len(tl.GPUs) {
		acts = make([]activity, len(tl.GPUs))
	}
	acts = acts[:len(tl.GPUs)]
	clear(acts)
	if t >= tl.End {
		for i := range acts {
			acts[i].state = Done
		}
		return acts
	}
	n := len(acts)
	for _, i := range spans {
		s := &tl.Spans[i]
		if s.GPU >= 0 && s.GPU < n && acts[s.GPU].span == nil {
			acts[s.GPU].state = spanState(s.Kind)
			acts[s.GPU].span = s
		}
	}
	for _, i := range live {
		x := tl.Transfers.At(int(i))
		if x.Src >= 0 && x.Src < n {
			acts[x.Src].sending = true
			communicate(&acts[x.Src])
		}
		if x.Dst >= 0 && x.Dst < n {
			communicate(&acts[x.Dst])
		}
	}
	for _, c := range colls {
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
	if a.state == Idle && a.span == nil {
		a.state = Communicating
	}
}

// label is the second line of text in a GPU's box: the op and its
// microbatch during a span ("forward F3", "tp-comm B2").
func (a activity) label() string {
	if a.span != nil {
		name := string(a.span.Kind)
		if a.span.Label != "" && a.span.Label != name { // not "forward forward"
			name += " " + a.span.Label
		}
		return name
	}
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
