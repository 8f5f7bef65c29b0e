package taskgraph

import (
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// port is a switch port whose messages are easy to time: 1 MB takes 1ms,
// plus 1µs of latency.
var port = topo.Port{Bandwidth: units.GBps, Latency: units.Microsecond, Kind: "test"}

func run(t *testing.T, g *Graph) *timeline.Timeline {
	t.Helper()
	tl, err := g.Run()
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(tl, "test"); err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestComputeStreamRunsOneSpanAtATime(t *testing.T) {
	g := New(topo.Switched(2, port), "compute")
	a := g.AddCompute(timeline.Span{GPU: 0, Kind: timeline.Forward, Label: "a"}, 3)
	g.AddCompute(timeline.Span{GPU: 0, Kind: timeline.Forward, Label: "b"}, 5) // no dependency, same stream
	g.AddCompute(timeline.Span{GPU: 1, Kind: timeline.Forward, Label: "c"}, 2, a)
	tl := run(t, g)
	want := []struct {
		label      string
		start, end units.Time
	}{{"a", 0, 3}, {"b", 3, 8}, {"c", 3, 5}}
	for i, w := range want {
		if sp := tl.Spans[i]; sp.Label != w.label || sp.Start != w.start || sp.End != w.end {
			t.Errorf("span %d = %s %v–%v, want %s %v–%v", i, sp.Label, sp.Start, sp.End, w.label, w.start, w.end)
		}
	}
	if tl.End != 8 {
		t.Errorf("End = %v, want 8ns", tl.End)
	}
}

// Two messages into one GPU: the single-port model sends them one after
// the other; concurrent messages share the receiver's link instead.
func TestSinglePortAndConcurrentMessages(t *testing.T) {
	for _, tc := range []struct {
		name       string
		concurrent bool
		want       [2]units.Time // when each message's last byte arrives
	}{
		{"single port", false, [2]units.Time{1001 * units.Microsecond, 2002 * units.Microsecond}},
		{"concurrent", true, [2]units.Time{2001 * units.Microsecond, 2001 * units.Microsecond}},
	} {
		g := New(topo.Switched(3, port), tc.name)
		if tc.concurrent {
			g.ConcurrentMessages()
		}
		c := g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "p2p", Ranks: 3}, []int{0, 1, 2}, PointToPoint)
		g.AddMessage(c, collective.Transfer{Src: 1, Dst: 0, Bytes: units.MB})
		g.AddMessage(c, collective.Transfer{Src: 2, Dst: 0, Bytes: units.MB})
		tl := run(t, g)
		if tl.Transfers.Len() != 2 || len(tl.Collectives) != 0 {
			t.Fatalf("%s: %d transfers, %d collectives; want 2 and none", tc.name, tl.Transfers.Len(), len(tl.Collectives))
		}
		for i := range tl.Transfers.Len() {
			x := tl.Transfers.At(i)
			if x.End != tc.want[i] || x.Collective != -1 {
				t.Errorf("%s: message %d arrives at %v (collective %d), want %v (-1)", tc.name, i, x.End, x.Collective, tc.want[i])
			}
		}
	}
}

// A join that waits for nothing finishes at once and readies what waits
// for it; the start of the run must not start that op a second time.
func TestRootJoinStartsALaterOpOnce(t *testing.T) {
	g := New(topo.Switched(2, port), "join")
	j := g.AddJoin()
	g.AddCompute(timeline.Span{GPU: 0, Kind: timeline.Forward, Label: "F"}, 4, j)
	tl, err := g.Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Spans) != 1 || tl.End != 4 {
		t.Errorf("%d spans ending at %v, want the op once, ending at 4ns", len(tl.Spans), tl.End)
	}
	// With no join before it, the op starts once.
	g = New(topo.Switched(2, port), "no join")
	g.AddCompute(timeline.Span{GPU: 0, Kind: timeline.Forward, Label: "F"}, 4)
	if tl := run(t, g); len(tl.Spans) != 1 || tl.End != 4 {
		t.Errorf("%d spans ending at %v, want 1 ending at 4ns", len(tl.Spans), tl.End)
	}
}

func TestHoldWaitsForRelease(t *testing.T) {
	g := New(topo.Switched(2, port), "hold")
	a := g.AddCompute(timeline.Span{GPU: 0, Kind: timeline.Forward, Label: "a"}, 10)
	b := g.AddCompute(timeline.Span{GPU: 1, Kind: timeline.Forward, Label: "b"}, 1)
	g.Hold(b)
	g.AfterFinish(func(id int) {
		if id == a {
			g.Release(b)
		}
	})
	var finished []int
	g.OnFinish(func(id int) { finished = append(finished, id) })
	tl := run(t, g)
	if sp := tl.Spans[1]; sp.Label != "b" || sp.Start != 10 {
		t.Errorf("held span %s starts at %v, want b at 10ns", sp.Label, sp.Start)
	}
	if len(finished) != 2 || finished[0] != a || finished[1] != b {
		t.Errorf("finished %v, want [%d %d]", finished, a, b)
	}
}

func TestGroupClosedFormAndMemory(t *testing.T) {
	g := New(topo.Switched(2, port), "group")
	g.TrackMemory()
	f := g.AddGroup(Group{GPUs: []int{0, 1}, Compute: 6, Comm: 2, CommKind: timeline.TPComm,
		Span: timeline.Span{Kind: timeline.Forward, Label: "F0"}, Take: Footprint{Bytes: 100, InFlight: 1}})
	ar := g.AddClosedForm(ClosedForm{Op: "all_reduce", Algorithm: "ring", Purpose: "dp", Bytes: 64, GPUs: []int{0, 1}, Time: 5}, f)
	g.AddGroup(Group{GPUs: []int{0, 1}, Compute: 3, Span: timeline.Span{Kind: timeline.Backward, Label: "B0"},
		Give: Footprint{Bytes: 100, InFlight: 1}}, g.AddDelay(1, f))
	g.AddCompute(timeline.Span{GPU: 0, Kind: timeline.Optimizer, Label: "opt"}, 1, ar)
	tl := run(t, g)
	// F0 computes 0–6 and communicates 6–8 on both GPUs; B0 follows the
	// 1ns delay at 9–12; the all-reduce runs 8–13 on the communication
	// streams, and the optimizer after it.
	if c := tl.Collectives[0]; c.Start != 8 || c.End != 13 || c.Purpose != "dp" {
		t.Errorf("all-reduce %v–%v (%s), want 8ns–13ns (dp)", c.Start, c.End, c.Purpose)
	}
	if tl.End != 14 || len(tl.Spans) != 7 {
		t.Errorf("end %v with %d spans, want 14ns and 7", tl.End, len(tl.Spans))
	}
	for gpu := range 2 {
		a := g.ActivationsOf(gpu)
		if a.Peak != 100 || a.PeakInFlight != 1 || len(a.Points) != 2 || a.Points[1].At != 12 || a.Points[1].Bytes != 0 {
			t.Errorf("GPU %d: activations %+v, want a peak of 100 bytes freed at 12ns", gpu, a)
		}
	}
}

func TestScheduleRecordsItsCollective(t *testing.T) {
	sch, err := collective.New("all_reduce", "ring", collective.Config{Ranks: 4, Bytes: 4 * units.MB})
	if err != nil {
		t.Fatal(err)
	}
	g := New(topo.Switched(4, port), "ring")
	first := g.AddSchedule(sch, []int{0, 1, 2, 3}, nil, "")
	if first != 0 || g.Len() != len(sch.Transfers) {
		t.Fatalf("first message %d, %d ops; want 0 and %d", first, g.Len(), len(sch.Transfers))
	}
	tl := run(t, g)
	c := tl.Collectives[0]
	// 2(n−1) steps of S/n each, α + 1MB/(1GB/s) = 1.001ms apiece.
	if want := 6 * 1001 * units.Microsecond; c.Start != 0 || c.End != want || tl.End != want {
		t.Errorf("ring all-reduce %v–%v, end %v; want 0–%v", c.Start, c.End, tl.End, want)
	}
}
