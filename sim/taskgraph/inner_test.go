package taskgraph

import (
	"slices"
	"strings"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestSchedulePredecessors: a placed schedule's message waits for its
// rank's ready op, then for the messages of its After, then for what
// Depend adds; ops before and after the schedule are unaffected.
func TestSchedulePredecessors(t *testing.T) {
	g := New(topo.Switched(3, port), "preds")
	r := g.AddCompute(timeline.Span{GPU: 0, Kind: timeline.Forward}, 1)
	sch := collective.Ring(3, 3*units.MB)
	first := g.AddSchedule(sch, Identity(3), []int{r, -1, r}, "dp")
	later := g.AddCompute(timeline.Span{GPU: 1, Kind: timeline.Forward}, 1, first+1)
	g.Depend(first+4, later)
	for i, tr := range sch.Transfers {
		var want []int
		if tr.Src != 1 {
			want = append(want, r)
		}
		for _, a := range sch.After(i) {
			want = append(want, first+int(a))
		}
		if i == 4 {
			want = append(want, later)
		}
		if got := g.Predecessors(first + i); !slices.Equal(got, want) {
			t.Errorf("Predecessors(message %d) = %v, want %v", i, got, want)
		}
		if got := g.Waiting(first + i); got != len(want) {
			t.Errorf("Waiting(message %d) = %d, want %d", i, got, len(want))
		}
	}
	if got := g.Predecessors(later); !slices.Equal(got, []int{first + 1}) {
		t.Errorf("Predecessors(later) = %v, want [%d]", got, first+1)
	}
	if got := g.Predecessors(r); len(got) != 0 {
		t.Errorf("Predecessors(ready op) = %v, want none", got)
	}
	tl := run(t, g)
	if tl.Transfers.Len() != len(sch.Transfers) {
		t.Errorf("%d messages ran, want %d", tl.Transfers.Len(), len(sch.Transfers))
	}
}

// TestScheduleWindowsAnyWhereInThePool: a schedule whose waits were
// rewritten (SetAfter puts the new window at the pool's end, so the
// windows no longer lie back to back) runs exactly as the one written in
// order, whose waits link reads from the pool alone.
func TestScheduleWindowsAnyWhereInThePool(t *testing.T) {
	sch := collective.RingPipelined(4, 4*units.MB, 2)
	moved := sch
	moved.Transfers, moved.Deps = slices.Clone(sch.Transfers), slices.Clone(sch.Deps)
	for i := len(moved.Transfers) / 2; i < len(moved.Transfers); i += 3 {
		moved.SetAfter(i, toInts(sch.After(i)))
	}
	var traces []string
	for _, s := range []collective.Schedule{sch, moved} {
		g := New(topo.Switched(4, port), "windows")
		g.AddSchedule(s, Identity(4), nil, "dp")
		var b strings.Builder
		if err := timeline.WriteJSON(run(t, g), &b); err != nil {
			t.Fatal(err)
		}
		traces = append(traces, b.String())
	}
	if traces[0] != traces[1] {
		t.Errorf("the run with rewritten waits differs from the one written in order")
	}
}

func toInts(xs []int32) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}
