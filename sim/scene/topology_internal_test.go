package scene

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// switchedPair is GPU 0 → switch (vertex 2) → GPU 1: one 9 MB transfer
// that pays 1ms of latency, then streams at 1 MB/ms until 10ms.
func switchedPair() *timeline.Timeline {
	return &timeline.Timeline{
		Title:    "two hops",
		GPUs:     []timeline.GPU{{ID: 0, Name: "GPU 0"}, {ID: 1, Name: "GPU 1"}},
		Switches: []timeline.Switch{{ID: 2, Name: "NVSwitch 0", Kind: "nvswitch"}},
		Links: []timeline.Link{
			{ID: 0, From: 0, To: 2, Bandwidth: 1e9}, {ID: 1, From: 2, To: 0, Bandwidth: 1e9},
			{ID: 2, From: 1, To: 2, Bandwidth: 1e9}, {ID: 3, From: 2, To: 1, Bandwidth: 1e9},
		},
		Transfers: timeline.TransfersOf([]timeline.Transfer{{
			Path: []int{0, 3}, Src: 0, Dst: 1, Bytes: 9e6, Collective: 0, Step: 0, Phase: "reduce-scatter",
			Start: 0, End: 10 * ms, Rates: []timeline.Rate{{At: ms, BytesPerSecond: 1e9}},
		}}...),
		Collectives: []timeline.Collective{{Name: "all-reduce", Algorithm: "ring", Ranks: 2, GPUs: []int{0, 1}, End: 10 * ms}},
		End:         10 * ms,
	}
}

func TestPacketFollowsTwoHopPath(t *testing.T) {
	tl := switchedPair()
	dl0 := Build(tl, 0, Options{})
	up, ok1 := find(dl0, "link/0")
	down, ok2 := find(dl0, "link/3")
	if !ok1 || !ok2 {
		t.Fatalf("links of the path not drawn")
	}
	l0, l1 := math.Hypot(up.X2-up.X, up.Y2-up.Y), math.Hypot(down.X2-down.X, down.Y2-down.Y)
	// wantAt is the point a fraction f along the two segments end to end.
	wantAt := func(f float64) (float64, float64) {
		d := f * (l0 + l1)
		if d <= l0 {
			return up.X + d/l0*(up.X2-up.X), up.Y + d/l0*(up.Y2-up.Y)
		}
		d -= l0
		return down.X + d/l1*(down.X2-down.X), down.Y + d/l1*(down.Y2-down.Y)
	}
	tests := []struct {
		name string
		at   units.Time
		frac float64
	}{
		{"at its start", 0, 0},
		{"in its latency", ms / 2, 0},
		{"half the bytes sent", ms + 4500*units.Microsecond, 0.5},
		{"last nanosecond", 10*ms - 1, 1},
	}
	for _, tc := range tests {
		sq, ok := find(Build(tl, tc.at, Options{}), "xfer/0")
		if !ok {
			t.Fatalf("%s: xfer/0 not drawn", tc.name)
		}
		gx, gy := sq.X+sq.W/2, sq.Y+sq.H/2
		wx, wy := wantAt(tc.frac)
		if math.Abs(gx-wx) > 0.01 || math.Abs(gy-wy) > 0.01 {
			t.Errorf("%s: packet at (%.2f, %.2f), want (%.2f, %.2f)", tc.name, gx, gy, wx, wy)
		}
	}
	// The path starts at GPU 0's box and ends at GPU 1's.
	src, _ := find(dl0, "gpu/0")
	dst, _ := find(dl0, "gpu/1")
	if d := distToBox(up.X, up.Y, src); d > 4 {
		t.Errorf("link/0 starts %.1fpx from gpu/0", d)
	}
	if d := distToBox(down.X2, down.Y2, dst); d > 4 {
		t.Errorf("link/3 ends %.1fpx from gpu/1", d)
	}
	if _, ok := find(Build(tl, tl.End, Options{}), "xfer/0"); ok {
		t.Errorf("xfer/0 drawn at its End")
	}
}

// TestLoadIsRatioNotCount: two flows at half the bandwidth load a link as
// much as one flow at the full bandwidth.
func TestLoadIsRatioNotCount(t *testing.T) {
	one := switchedPair()
	two := switchedPair()
	half := two.Transfers.At(0)
	half.Rates = []timeline.Rate{{At: ms, BytesPerSecond: 0.5e9}}
	two.Transfers = timeline.TransfersOf(half, half)
	at := 5 * ms
	lo, lt := loads(one, at), loads(two, at)
	if lo[0] != 1 || lt[0] != 1 || lo[1] != 0 {
		t.Errorf("loads = %v and %v, want link 0 at 1 in both and link 1 idle", lo, lt)
	}
	a, _ := find(Build(one, at, Options{}), "link/0")
	b, _ := find(Build(two, at, Options{}), "link/0")
	if a.Stroke != b.Stroke || a.StrokeWidth != b.StrokeWidth {
		t.Errorf("one full flow: %v w%.2f; two half flows: %v w%.2f; want the same", a.Stroke, a.StrokeWidth, b.Stroke, b.StrokeWidth)
	}
	if idle, _ := find(Build(one, at, Options{}), "link/1"); idle.Stroke != colLink {
		t.Errorf("idle link/1 stroke %v, want grey %v", idle.Stroke, colLink)
	}
	// In its latency a transfer sends nothing, so its links are idle.
	if u := loads(one, ms/2); u[0] != 0 {
		t.Errorf("load during latency = %v, want 0", u[0])
	}
}

func TestLoadColorRamp(t *testing.T) {
	tests := []struct {
		u    float64
		want Color
	}{
		{0, colLink}, {math.NaN(), colLink}, {-1, colLink},
		{1e-9, loadRamp[0]}, {1, loadRamp[len(loadRamp)-1]}, {3, loadRamp[len(loadRamp)-1]},
	}
	for _, tc := range tests {
		if got := loadColor(tc.u); got != tc.want {
			t.Errorf("loadColor(%v) = %v, want %v", tc.u, got, tc.want)
		}
	}
	// Darker as the load grows, so the ramp reads without hue.
	prev := 1e9
	for u := 0.05; u <= 1; u += 0.05 {
		c := loadColor(u)
		l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
		if l > prev {
			t.Errorf("loadColor(%.2f) is lighter than at the load below", u)
		}
		prev = l
	}
}

func TestStepCaption(t *testing.T) {
	tl := ringTimeline(4)
	tests := []struct {
		at   units.Time
		want string
	}{
		{ms, ""},
		{6*ms + 100*units.Microsecond, "ring all-reduce · reduce-scatter, step 1 of 6"},
		{8*ms + 600*units.Microsecond, "ring all-reduce · all-gather, step 6 of 6"},
	}
	for _, tc := range tests {
		if got := stepCaption(tl, tc.at); got != tc.want {
			t.Errorf("stepCaption at %v = %q, want %q", tc.at, got, tc.want)
		}
	}
	// Overlapping steps are named as a range.
	editTransfer(tl, 1, func(x *timeline.Transfer) { x.End += ms }) // step 0 runs on into step 1
	if got, want := stepCaption(tl, 6*ms+600*units.Microsecond), "ring all-reduce · reduce-scatter, steps 1–2 of 6"; got != want {
		t.Errorf("overlapping steps: %q, want %q", got, want)
	}
	an := switchedPair()
	an.Fidelity, an.Transfers = "analytic", timeline.Transfers{}
	if got, want := stepCaption(an, ms), "ring all-reduce · "+analyticNote; got != want {
		t.Errorf("analytic: %q, want %q", got, want)
	}
}

func TestStateAtAnalytic(t *testing.T) {
	tl := switchedPair()
	tl.Fidelity, tl.Transfers = "analytic", timeline.Transfers{}
	tl.GPUs = append(tl.GPUs, timeline.GPU{ID: 2}) // not in the collective
	tl.Switches[0].ID = 3
	for gpu, want := range []State{Communicating, Communicating, Idle} {
		if got := StateAt(tl, gpu, 5*ms); got != want {
			t.Errorf("StateAt(gpu %d) = %v, want %v", gpu, got, want)
		}
		if got := activities(tl, 5*ms, spanCollectives(tl))[gpu].state; got != want {
			t.Errorf("activities[%d] = %v, want %v", gpu, got, want)
		}
	}
	if got := activities(tl, 5*ms, spanCollectives(tl))[0].label(); got != "collective" {
		t.Errorf("label = %q, want %q", got, "collective")
	}
}

// TestTopologyMalformed: indices that point nowhere are skipped, never a panic.
func TestTopologyMalformed(t *testing.T) {
	tl := switchedPair()
	tl.GPUs[1].Node = 1 << 40
	tl.GPUs[0].Node = -3
	tl.Switches = append(tl.Switches, timeline.Switch{ID: 3, Node: -1, Kind: "spine"}, timeline.Switch{ID: 4, Node: 7})
	tl.Links = append(tl.Links, timeline.Link{ID: 4, From: 9, To: -1}, timeline.Link{ID: 5, From: 3, To: 3})
	editTransfer(tl, 0, func(x *timeline.Transfer) { x.Path = []int{0, 42, -1, 3} })
	tl.Transfers.Append(timeline.Transfer{Path: []int{99}, Src: 7, Dst: 1, Start: 0, End: ms})
	dl := Build(tl, 2*ms, Options{})
	if _, ok := find(dl, "link/4"); ok {
		t.Errorf("link/4 to nowhere was drawn")
	}
	if _, ok := find(dl, "xfer/0"); !ok {
		t.Errorf("xfer/0 with some valid links not drawn")
	}
}

// TestLinkPairColour checks that a pair of links drawn as one line (512
// GPUs on 1280×800) takes the colour of its busier direction, from the
// loads of every transfer in flight.
func TestLinkPairColour(t *testing.T) {
	tl := chainBroadcast512(t)
	pairs, uneven := 0, 0
	for _, frac := range []int64{5, 37, 60, 90} {
		at := tl.End * units.Time(frac) / 100
		u := loads(tl, at)
		for _, it := range Build(tl, at, Options{Width: 1280, Height: 800}).Items {
			a, z, ok := strings.Cut(strings.TrimPrefix(it.ID, "link/"), "+")
			if !ok || !strings.HasPrefix(it.ID, "link/") {
				continue
			}
			i, _ := strconv.Atoi(a)
			j, _ := strconv.Atoi(z)
			pairs++
			if u[i] != u[j] {
				uneven++
			}
			if want := loadColor(max(u[i], u[j])); it.Stroke != want {
				t.Errorf("%s at %v (loads %.2f, %.2f) is %v; want %v", it.ID, at, u[i], u[j], it.Stroke, want)
			}
		}
	}
	if pairs == 0 || uneven == 0 {
		t.Errorf("%d pairs, %d with unequal loads; want some of each to check", pairs, uneven)
	}
	t.Logf("%d pairs checked, %d with unequal loads", pairs, uneven)
}

// TestSmallGPUBoxOutlines checks that GPU boxes under 8 px wide (512 GPUs
// on 1280×800) are outlined only when idle, whose light fill needs the edge
// to stand out from the node behind it.
func TestSmallGPUBoxOutlines(t *testing.T) {
	tl := chainBroadcast512(t)
	idle, busy := 0, 0
	for _, it := range Build(tl, tl.End/3, Options{Width: 1280, Height: 800}).Items {
		if !strings.HasPrefix(it.ID, "gpu/") || strings.Count(it.ID, "/") != 1 {
			continue
		}
		if it.W >= 8 {
			t.Fatalf("%s is %.1f px wide; want the small boxes of 512 GPUs", it.ID, it.W)
		}
		outlined := it.StrokeWidth > 0 && it.Stroke.A > 0
		if isIdle := it.Fill == stateStyle[Idle].fill; isIdle {
			idle++
			if !outlined {
				t.Errorf("%s is idle and not outlined", it.ID)
			}
		} else {
			busy++
			if outlined {
				t.Errorf("%s (fill %v) is outlined; want no outline on a busy small box", it.ID, it.Fill)
			}
		}
	}
	if idle == 0 || busy == 0 {
		t.Errorf("%d idle and %d busy boxes; want some of each to check", idle, busy)
	}
}

// chainBroadcast512 is a 4 GiB chain broadcast on 64 nodes of 8 GPUs, in
// detail: data flows one way along the chain, so a cable's two directions
// carry different loads and GPUs are busy and idle side by side.
func chainBroadcast512(t *testing.T) *timeline.Timeline {
	t.Helper()
	b, err := cluster.Build(cluster.Spec{Nodes: 64, PerNode: 8})
	if err != nil {
		t.Fatal(err)
	}
	cfg := collective.Config{Ranks: 512, Nodes: 64, PerNode: 8, Bytes: 4 * units.GiB}
	_, tl, err := nccltest.MeasureCollective(b.Topology, "broadcast", "chain", cfg, taskgraph.Detailed)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}
