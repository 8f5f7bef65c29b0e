package scene

import (
	"strings"
	"testing"
)

// centre is the middle of a Rect or Line item.
func centre(it Item) (x, y float64) {
	if it.Shape == Line {
		return (it.X + it.X2) / 2, (it.Y + it.Y2) / 2
	}
	return it.X + it.W/2, it.Y + it.H/2
}

func TestHitTestFindsTheThingDrawn(t *testing.T) {
	tl := ringTimeline(4)
	at := tl.Transfers.At(5).Start + ms/8 // xfer/5 in flight on link 1
	dl := Build(tl, at, Options{})
	tests := []struct{ item, want string }{
		{"gpu/2", "gpu/2"},
		{"gpu/2/label", "gpu/2"},
		{"xfer/5", "xfer/5"},
		{"strip/span/0", "strip/span/0"},
		{"strip/row/0", "gpu/0"},
	}
	for _, tc := range tests {
		it, ok := find(dl, tc.item)
		if !ok {
			t.Fatalf("no %s in the draw list", tc.item)
		}
		x, y := centre(it)
		if tc.item == "strip/row/0" { // below the send lane, clear of bars
			y = it.Y + it.H*0.95
		}
		if it.Shape == Text {
			x, y = it.X, it.Y-it.Size/3
		}
		if got, ok := HitTest(dl, x, y); !ok || got != tc.want {
			t.Errorf("HitTest at the centre of %s = %q, %v; want %q", tc.item, got, ok, tc.want)
		}
	}
	// A link, away from the packet on it: 70% of the way along link 3.
	l, _ := find(dl, "link/3")
	x, y := l.X+0.7*(l.X2-l.X), l.Y+0.7*(l.Y2-l.Y)
	if got, ok := HitTest(dl, x, y); got != "link/3" {
		t.Errorf("HitTest on link/3 = %q, %v; want link/3", got, ok)
	}
	if got, ok := HitTest(dl, 2, 2); ok {
		t.Errorf("HitTest in the corner = %q, want nothing", got)
	}
	if got, ok := HitTest(dl, -50, 9999); ok {
		t.Errorf("HitTest off the canvas = %q, want nothing", got)
	}
}

func TestHitTestTopologyView(t *testing.T) {
	tl := switchedPair()
	dl := Build(tl, tl.End/2, Options{})
	for _, it := range dl.Items {
		if !strings.HasPrefix(it.ID, "switch/") || strings.Count(it.ID, "/") != 1 {
			continue
		}
		x, y := centre(it)
		if got, _ := HitTest(dl, x, y); got != it.ID {
			t.Errorf("HitTest at the centre of %s = %q", it.ID, got)
		}
		return
	}
	t.Fatal("no switch drawn")
}

func TestDescribe(t *testing.T) {
	tl := ringTimeline(4)
	at := tl.Transfers.At(5).Start + ms/4
	tests := []struct {
		id   string
		want []string
	}{
		{"gpu/1", []string{"GPU 1", "communicating", "sending 1, receiving 1"}},
		{"link/1", []string{"GPU 1 → GPU 2", "50GB/s", "load at"}},
		{"xfer/5", []string{"chunk 0", "16MiB", "GPU 1 → GPU 2", "ring all-reduce · reduce-scatter, step 2", "% sent"}},
		{"strip/span/4", []string{"backward B0 on GPU 0", "2ms–6ms"}},
		{"strip/send/5", []string{"packet 5"}},
	}
	for _, tc := range tests {
		got := Describe(tl, tc.id, at)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("Describe(%s) = %q; want it to contain %q", tc.id, got, w)
			}
		}
	}
	for _, id := range []string{"", "gpu/99", "gpu/x", "link/-1", "xfer/100000", "header/title", "strip/span", "switch/0", "node/7"} {
		if got := Describe(tl, id, at); got != "" {
			t.Errorf("Describe(%q) = %q, want empty", id, got)
		}
	}
	if got := Describe(nil, "gpu/0", 0); got != "" {
		t.Errorf("Describe(nil) = %q", got)
	}
}

func TestStripTimeAt(t *testing.T) {
	tl := ringTimeline(4)
	dl := Build(tl, 0, Options{})
	axis, _ := find(dl, "axis")
	head, _ := find(dl, "playhead")
	mid := (head.Y + head.Y2) / 2
	tests := []struct {
		x, y   float64
		want   float64 // fraction of End
		inside bool
	}{
		{axis.X, mid, 0, true},
		{axis.X2, mid, 1, true},
		{(axis.X + axis.X2) / 2, mid, 0.5, true},
		{axis.X - 200, mid, 0, false},
		{(axis.X + axis.X2) / 2, 10, 0.5, false},
	}
	for _, tc := range tests {
		got, inside := StripTimeAt(dl, tl.End, tc.x, tc.y)
		want := float64(tl.End) * tc.want
		if d := float64(got) - want; d > 1 || d < -1 || inside != tc.inside {
			t.Errorf("StripTimeAt(%.0f, %.0f) = %v, %v; want %v, %v", tc.x, tc.y, got, inside, want, tc.inside)
		}
	}
	if _, inside := StripTimeAt(DrawList{}, tl.End, 0, 0); inside {
		t.Error("StripTimeAt on an empty list says inside")
	}
}

// ownerBySplit is ownerID as first written, splitting the ID on "/": the
// oracle the allocation-free ownerID is checked against.
func ownerBySplit(id string) string {
	parts := strings.Split(id, "/")
	switch parts[0] {
	case "gpu", "link", "switch", "xfer", "node":
		if len(parts) >= 2 {
			return parts[0] + "/" + parts[1]
		}
	case "long":
		if len(parts) == 3 && parts[1] == "failure" {
			return id
		}
	case "plan":
		if len(parts) == 2 && parts[1] != "" && strings.Trim(parts[1], "0123456789") == "" {
			return id
		}
	case "strip":
		if len(parts) < 3 {
			return ""
		}
		switch parts[1] {
		case "row", "label":
			return "gpu/" + parts[2]
		case "span", "send", "collective":
			return id
		}
	}
	return ""
}

var ownerIDs = []string{
	"", "/", "gpu", "gpu/", "gpu/3", "gpu/3/label", "gpu/3/box/x", "link/4+5", "link/12/head",
	"switch/2", "xfer/77", "node/1/frame", "long", "long/failure", "long/failure/3",
	"long/failure/3/x", "long/other/3", "plan", "plan/", "plan/17", "plan/1a", "plan/1/2",
	"strip", "strip/row", "strip/row/4", "strip/label/4/x", "strip/span/9", "strip/send/2",
	"strip/collective/3/1", "strip/axis/1", "header/title", "legend/gpu/1", "gpux/1",
}

func TestOwnerIDMatchesSplit(t *testing.T) {
	for _, id := range ownerIDs {
		if got, want := ownerID(id), ownerBySplit(id); got != want {
			t.Errorf("ownerID(%q) = %q, want %q", id, got, want)
		}
	}
}

func FuzzOwnerID(f *testing.F) {
	for _, id := range ownerIDs {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := ownerID(id), ownerBySplit(id); got != want {
			t.Errorf("ownerID(%q) = %q, want %q", id, got, want)
		}
	})
}

// TestHitTestAllocatesNothing: the browser hit-tests the pointer every
// frame, so a miss, and a hit on anything but a strip row, must not
// allocate (the playground promises no allocation per frame in steady
// state).
func TestHitTestAllocatesNothing(t *testing.T) {
	tl := ringTimeline(4)
	at := tl.Transfers.At(5).Start + ms/8
	dl := Build(tl, at, Options{})
	g, _ := find(dl, "gpu/2")
	gx, gy := centre(g)
	for _, p := range []struct {
		name string
		x, y float64
	}{{"a miss", 2, 2}, {"gpu/2", gx, gy}} {
		if n := testing.AllocsPerRun(20, func() { HitTest(dl, p.x, p.y) }); n != 0 {
			t.Errorf("HitTest over %s: %.0f allocations, want 0", p.name, n)
		}
	}
}

func BenchmarkHitTest(b *testing.B) {
	tl := ringTimeline(16)
	dl := Build(tl, tl.End/2, Options{Width: 1280, Height: 800})
	b.ReportAllocs()
	for b.Loop() {
		HitTest(dl, 2, 2) // a miss: every item is tested
	}
}
