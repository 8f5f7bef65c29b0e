package scene

import (
	"testing"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

func TestPresenterEvents(t *testing.T) {
	tl := ringTimeline(4)
	ev := PresenterEvents(tl)
	// 0 (forward), 2 ms (backward), six ring steps every 0.5 ms from 6 ms, the end.
	want := []units.Time{0, 2 * ms, 6 * ms, 6500 * units.Microsecond, 7 * ms, 7500 * units.Microsecond, 8 * ms, 8500 * units.Microsecond, 9 * ms}
	if len(ev) != len(want) {
		t.Fatalf("events %v, want %v", ev, want)
	}
	for i := range want {
		if ev[i] != want[i] {
			t.Fatalf("events %v, want %v", ev, want)
		}
	}
	if got := NextEvent(ev, 2*ms); got != 6*ms {
		t.Errorf("NextEvent(2ms) = %v, want 6ms", got)
	}
	if got := NextEvent(ev, 3*ms); got != 6*ms {
		t.Errorf("NextEvent(3ms) = %v, want 6ms", got)
	}
	if got := PrevEvent(ev, 6*ms); got != 2*ms {
		t.Errorf("PrevEvent(6ms) = %v, want 2ms", got)
	}
	if got := NextEvent(ev, 9*ms); got != 9*ms {
		t.Errorf("NextEvent(end) = %v, want the end", got)
	}
	if got := PrevEvent(ev, 0); got != 0 {
		t.Errorf("PrevEvent(0) = %v, want 0", got)
	}
}

func TestCaption(t *testing.T) {
	ring := ringTimeline(4)
	pipe := &timeline.Timeline{GPUs: []timeline.GPU{{ID: 0}, {ID: 1}}, End: 10 * ms, Spans: []timeline.Span{
		{GPU: 0, Stage: 0, Microbatch: 0, Kind: timeline.Forward, Start: 0, End: 1 * ms},
		{GPU: 1, Stage: 1, Microbatch: 0, Kind: timeline.Forward, Start: 1 * ms, End: 2 * ms},
		{GPU: 0, Stage: 0, Microbatch: 1, Kind: timeline.Forward, Start: 1 * ms, End: 2 * ms},
		{GPU: 1, Stage: 1, Microbatch: 3, Kind: timeline.Backward, Start: 4 * ms, End: 6 * ms},
	}}
	tests := []struct {
		tl   *timeline.Timeline
		at   units.Time
		want string
	}{
		{ring, 0, "GPU 0 starts forward (on 4 GPUs)"},
		{ring, 3 * ms, "GPU 0 starts backward (on 4 GPUs)"},
		{ring, 6 * ms, "ring all-reduce: reduce-scatter step 1 of 6 starts"},
		{ring, 8*ms + 100*units.Microsecond, "ring all-reduce: all-gather step 5 of 6 starts"},
		{pipe, 500 * units.Microsecond, "stage 0 starts forward of microbatch 0"},
		{pipe, 1 * ms, "stage 1 starts forward of microbatch 0 (and 1 more op)"},
		{pipe, 5 * ms, "stage 1 starts backward of microbatch 3"},
		{&timeline.Timeline{GPUs: []timeline.GPU{{ID: 0}}, End: ms}, ms / 2, ""},
	}
	for _, tc := range tests {
		if got := Caption(tc.tl, tc.at); got != tc.want {
			t.Errorf("Caption(%v) = %q, want %q", tc.at, got, tc.want)
		}
	}
}
