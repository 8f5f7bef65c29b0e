package scene

import (
	"testing"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

func TestStateAt(t *testing.T) {
	tl := ringTimeline(4)
	// A lone receiver: GPU 2 idles while GPU 1 sends to it after the run's
	// compute, and a GPU that only receives is still communicating.
	tests := []struct {
		name string
		gpu  int
		at   units.Time
		want State
	}{
		{"forward at start", 0, 0, Forward},
		{"forward just before its end", 3, 2*ms - 1, Forward},
		{"backward at its start", 1, 2 * ms, Backward},
		{"backward", 2, 5 * ms, Backward},
		{"communicating at first step", 0, 6 * ms, Communicating},
		{"communicating in all-gather", 3, 8*ms + 700*units.Microsecond, Communicating},
		{"last instant before the end", 1, tl.End - 1, Communicating},
		{"done at the end", 0, tl.End, Done},
		{"done after the end", 2, tl.End + ms, Done},
		{"unknown gpu", 4, ms, Idle},
		{"negative gpu", -1, ms, Idle},
	}
	for _, tc := range tests {
		if got := StateAt(tl, tc.gpu, tc.at); got != tc.want {
			t.Errorf("%s: StateAt(gpu %d, %v) = %v, want %v", tc.name, tc.gpu, tc.at, got, tc.want)
		}
	}
}

func TestStateAtIdleAndReceiving(t *testing.T) {
	tl := &timeline.Timeline{
		GPUs:      []timeline.GPU{{ID: 0}, {ID: 1}, {ID: 2}},
		Links:     []timeline.Link{{ID: 0, From: 0, To: 1}},
		Spans:     []timeline.Span{{GPU: 0, Kind: timeline.Forward, Start: 0, End: 2 * ms}},
		Transfers: timeline.TransfersOf([]timeline.Transfer{{Path: []int{0}, Src: 0, Dst: 1, Start: ms, End: 3 * ms}}...),
		End:       4 * ms,
	}
	tests := []struct {
		gpu  int
		at   units.Time
		want State
	}{
		{0, ms, Forward}, // compute wins over the transfer it sends
		{0, 2 * ms, Communicating},
		{1, ms, Communicating}, // receiving only
		{1, 3 * ms, Idle},      // the transfer ended (half-open)
		{2, ms, Idle},
		{2, 4 * ms, Done},
	}
	for _, tc := range tests {
		if got := StateAt(tl, tc.gpu, tc.at); got != tc.want {
			t.Errorf("StateAt(gpu %d, %v) = %v, want %v", tc.gpu, tc.at, got, tc.want)
		}
	}
	// The per-frame pass must agree with StateAt and pick the right label.
	acts := activities(tl, ms, spanCollectives(tl))
	for gpu, want := range []string{"forward", "receiving", "idle"} {
		if got := acts[gpu].label(); got != want {
			t.Errorf("label of gpu %d at 1ms = %q, want %q", gpu, got, want)
		}
	}
	if got := activities(tl, 2*ms, spanCollectives(tl))[0].label(); got != "sending" {
		t.Errorf("label of gpu 0 at 2ms = %q, want %q", got, "sending")
	}
}

func TestActivitiesAgreeWithStateAt(t *testing.T) {
	tl := ringTimeline(4)
	for at := units.Time(0); at <= tl.End+ms; at += 250 * units.Microsecond {
		acts := activities(tl, at, spanCollectives(tl))
		for gpu := range tl.GPUs {
			if got, want := acts[gpu].state, StateAt(tl, gpu, at); got != want {
				t.Errorf("activities at %v, gpu %d = %v, want StateAt's %v", at, gpu, got, want)
			}
		}
	}
}

func TestStateString(t *testing.T) {
	for s, want := range map[State]string{Idle: "idle", Forward: "forward", Backward: "backward", Communicating: "communicating", Done: "done", 99: "unknown"} {
		if got := s.String(); got != want {
			t.Errorf("State(%d).String() = %q, want %q", s, got, want)
		}
	}
}

// TestActivityLabelNamesKindOnce: a span labelled with its own kind (the
// synthetic data-parallel run labels its spans "forward") reads "forward",
// not "forward forward"; a microbatch label follows the kind.
func TestActivityLabelNamesKindOnce(t *testing.T) {
	for _, tc := range []struct {
		kind        timeline.Kind
		label, want string
	}{
		{timeline.Forward, "forward", "forward"},
		{timeline.Forward, "F3", "forward F3"},
		{timeline.Backward, "", "backward"},
	} {
		a := activity{state: Forward, span: &timeline.Span{Kind: tc.kind, Label: tc.label}}
		if got := a.label(); got != tc.want {
			t.Errorf("label of a %s span labelled %q = %q, want %q", tc.kind, tc.label, got, tc.want)
		}
	}
}
