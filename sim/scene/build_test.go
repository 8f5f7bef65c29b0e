package scene

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

func TestChunkMovesAlongItsLink(t *testing.T) {
	tl := ringTimeline(4)
	x := tl.Transfers.At(5) // reduce-scatter step 1 on link 1: GPU 1 → GPU 2
	tests := []struct {
		name string
		at   units.Time
		frac float64
	}{
		{"at start", x.Start, 0},
		{"quarter", x.Start + (x.End-x.Start)/4, 0.25},
		{"halfway", x.Start + (x.End-x.Start)/2, 0.5},
	}
	for _, tc := range tests {
		dl := Build(tl, tc.at, Options{})
		link, ok := find(dl, "link/1")
		if !ok {
			t.Fatalf("%s: no link/1", tc.name)
		}
		sq, ok := find(dl, "xfer/5")
		if !ok {
			t.Fatalf("%s: no xfer/5 at %v", tc.name, tc.at)
		}
		gotX, gotY := sq.X+sq.W/2, sq.Y+sq.H/2
		wantX := link.X + tc.frac*(link.X2-link.X)
		wantY := link.Y + tc.frac*(link.Y2-link.Y)
		if math.Abs(gotX-wantX) > 1e-9 || math.Abs(gotY-wantY) > 1e-9 {
			t.Errorf("%s: chunk centre = (%.2f, %.2f), want (%.2f, %.2f)", tc.name, gotX, gotY, wantX, wantY)
		}
		if want := chunkColor(x.Chunk); sq.Fill != want {
			t.Errorf("%s: chunk fill = %v, want %v", tc.name, sq.Fill, want)
		}
	}
	// The link starts at the source box's edge and ends at the destination's.
	dl := Build(tl, x.Start, Options{})
	link, _ := find(dl, "link/1")
	src, _ := find(dl, "gpu/1")
	dst, _ := find(dl, "gpu/2")
	if d := distToBox(link.X, link.Y, src); d > 6 {
		t.Errorf("link/1 starts %.1fpx from gpu/1's box, want at its edge", d)
	}
	if d := distToBox(link.X2, link.Y2, dst); d > 6 {
		t.Errorf("link/1 ends %.1fpx from gpu/2's box, want at its edge", d)
	}
	if _, ok := find(Build(tl, x.End, Options{}), "xfer/5"); ok {
		t.Errorf("xfer/5 drawn at its End; transfers are half-open")
	}
}

// distToBox is the distance from (x, y) to the rect of it (0 inside).
func distToBox(x, y float64, it Item) float64 {
	dx := max(it.X-x, 0, x-(it.X+it.W))
	dy := max(it.Y-y, 0, y-(it.Y+it.H))
	return math.Hypot(dx, dy)
}

func TestGPUFillFollowsState(t *testing.T) {
	tl := ringTimeline(4)
	for _, at := range []units.Time{0, 3 * ms, 7 * ms, tl.End} {
		dl := Build(tl, at, Options{})
		for gpu := range tl.GPUs {
			box, ok := find(dl, "gpu/"+itoa(gpu))
			state := StateAt(tl, gpu, at)
			if !ok || box.Fill != state.fill() {
				t.Errorf("gpu/%d at %v: fill %v, want %v (%v)", gpu, at, box.Fill, state.fill(), state)
			}
			label, _ := find(dl, "gpu/"+itoa(gpu)+"/state")
			if at == 7*ms && label.Text != "sending" {
				t.Errorf("gpu/%d/state at 7ms = %q, want %q", gpu, label.Text, "sending")
			}
		}
	}
}

func TestLinkHighlightedWhileBusy(t *testing.T) {
	tl := ringTimeline(4)
	tests := []struct {
		at   units.Time
		want Color
	}{
		{3 * ms, colLink},
		{6 * ms, stateStyle[Communicating].fill},
		{tl.End, colLink},
	}
	for _, tc := range tests {
		link, _ := find(Build(tl, tc.at, Options{}), "link/0")
		if link.Stroke != tc.want {
			t.Errorf("link/0 at %v: stroke %v, want %v", tc.at, link.Stroke, tc.want)
		}
	}
}

func TestIDsUniqueAndStable(t *testing.T) {
	for _, n := range []int{1, 2, 4, 16, 64} {
		tl := ringTimeline(n)
		var prev map[string]bool
		for _, at := range []units.Time{0, 3 * ms, 6*ms + 100*units.Microsecond, tl.End} {
			dl := Build(tl, at, Options{})
			ids := map[string]bool{}
			for i, it := range dl.Items {
				if it.ID == "" {
					t.Fatalf("n=%d t=%v: item %d has no ID", n, at, i)
				}
				if ids[it.ID] {
					t.Fatalf("n=%d t=%v: duplicate ID %q", n, at, it.ID)
				}
				ids[it.ID] = true
			}
			// Everything but the chunks in flight and the caption naming
			// the collective step is there at every instant.
			for id := range prev {
				if !ids[id] && !strings.HasPrefix(id, "xfer/") && !strings.HasPrefix(id, "caption") {
					t.Errorf("n=%d: %q drawn before %v but not at it", n, id, at)
				}
			}
			prev = ids
		}
	}
}

func TestBuildDeterministic(t *testing.T) {
	tl := ringTimeline(8)
	at := 7*ms + 123*units.Microsecond
	a, b := Build(tl, at, Options{}), Build(tl, at, Options{})
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two Builds of the same instant differ")
	}
}

func TestBuildClampsTime(t *testing.T) {
	tl := ringTimeline(4)
	tests := []struct {
		name     string
		at, same units.Time
	}{
		{"before zero", -5 * ms, 0},
		{"after end", tl.End + 10*ms, tl.End},
		{"huge", units.MaxTime, tl.End},
	}
	for _, tc := range tests {
		got, want := Build(tl, tc.at, Options{}), Build(tl, tc.same, Options{})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Build(%v) differs from Build(%v)", tc.name, tc.at, tc.same)
		}
	}
	head, _ := find(Build(tl, tl.End+ms, Options{}), "header/time")
	if want := "t = 9ms / 9ms"; head.Text != want {
		t.Errorf("header/time = %q, want %q", head.Text, want)
	}
}

func TestBuildEmpty(t *testing.T) {
	tests := []struct {
		name string
		tl   *timeline.Timeline
		want string
	}{
		{"nil", nil, "No timeline to show."},
		{"no GPUs", &timeline.Timeline{Title: "empty", End: ms}, "This run has no GPUs to show."},
		{"zero value", &timeline.Timeline{}, "This run has no GPUs to show."},
	}
	for _, tc := range tests {
		dl := Build(tc.tl, ms, Options{})
		msg, ok := find(dl, "message")
		if !ok || msg.Text != tc.want {
			t.Errorf("%s: message %q, want %q", tc.name, msg.Text, tc.want)
		}
		if dl.Width != DefaultWidth || dl.Height != DefaultHeight {
			t.Errorf("%s: size %v×%v, want the default", tc.name, dl.Width, dl.Height)
		}
	}
}

// TestBuildMalformed feeds indices that point nowhere; Build must skip them.
func TestBuildMalformed(t *testing.T) {
	tl := &timeline.Timeline{
		GPUs:      []timeline.GPU{{ID: 0}, {ID: 1}},
		Links:     []timeline.Link{{ID: 0, From: 0, To: 7}, {ID: 1, From: 1, To: 1}, {ID: 2, From: 0, To: 1}},
		Spans:     []timeline.Span{{GPU: 9, Start: 0, End: ms}, {GPU: -1, Start: 0, End: ms}, {GPU: 0, Kind: "mystery", Start: 0, End: ms}},
		Transfers: timeline.TransfersOf([]timeline.Transfer{{Path: []int{5}, Src: 8, Dst: -2, Start: 0, End: ms}, {Path: []int{0}, Src: 0, Dst: 7, Start: 0, End: ms}}...),
		End:       ms,
	}
	dl := Build(tl, ms/2, Options{})
	if _, ok := find(dl, "link/0"); ok {
		t.Errorf("link/0 to a missing GPU was drawn")
	}
	if _, ok := find(dl, "link/2"); !ok {
		t.Errorf("valid link/2 was not drawn")
	}
	if got := StateAt(tl, 0, ms/2); got != Forward {
		t.Errorf("unknown span kind: state %v, want %v", got, Forward)
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		opt    Options
		ok     bool
		w, h   float64
		reason string
	}{
		{Options{}, true, 960, 600, "zero means default"},
		{Options{Width: 1280, Height: 720}, true, 1280, 720, "explicit"},
		{Options{Width: 640}, true, 640, 600, "height defaults alone"},
		{Options{Width: -1}, false, 960, 600, "negative"},
		{Options{Height: math.NaN()}, false, 960, 600, "NaN"},
		{Options{Width: math.Inf(1)}, false, 960, 600, "Inf"},
		{Options{Width: 1e6}, false, 960, 600, "too large"},
		{Options{Height: 10}, false, 960, 600, "too small"},
	}
	for _, tc := range tests {
		err := tc.opt.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("%s: Validate(%+v) = %v, want ok=%v", tc.reason, tc.opt, err, tc.ok)
		}
		dl := Build(ringTimeline(4), ms, tc.opt)
		if dl.Width != tc.w || dl.Height != tc.h {
			t.Errorf("%s: Build size %v×%v, want %v×%v", tc.reason, dl.Width, dl.Height, tc.w, tc.h)
		}
	}
}

func TestItemsInsideCanvas(t *testing.T) {
	for _, opt := range []Options{{}, {Width: 320, Height: 200}, {Width: 1920, Height: 1080}} {
		for _, n := range []int{1, 3, 4, 16, 64} {
			dl := Build(ringTimeline(n), 7*ms, opt)
			for _, it := range dl.Items {
				x0, y0, x1, y1 := it.X, it.Y, it.X+it.W, it.Y+it.H
				if it.Shape == Line {
					x1, y1 = it.X2, it.Y2
				}
				if it.Shape == Text {
					y0 -= it.Size
				}
				if min(x0, x1) < 0 || min(y0, y1) < 0 || max(x0, x1) > dl.Width || max(y0, y1) > dl.Height {
					t.Errorf("%v n=%d: %q (%.1f,%.1f)-(%.1f,%.1f) leaves the %v×%v canvas", opt, n, it.ID, x0, y0, x1, y1, dl.Width, dl.Height)
				}
			}
		}
	}
}

func TestStripMergesTouchingTransfers(t *testing.T) {
	tl := ringTimeline(4) // each GPU sends 6 back-to-back transfers
	dl := Build(tl, 0, Options{})
	var sends int
	for _, it := range dl.Items {
		if strings.HasPrefix(it.ID, "strip/send/") {
			sends++
		}
	}
	if sends != 4 {
		t.Errorf("strip has %d send rects, want 4 (one merged run per GPU)", sends)
	}
}

func TestTickStep(t *testing.T) {
	tests := []struct{ end, want units.Time }{
		{9 * ms, 2 * ms},
		{10 * ms, 2 * ms},
		{12 * ms, 2500 * units.Microsecond},
		{6 * ms, 2 * ms},
		{5 * ms, ms},
		{30 * ms, 10 * ms},
		{units.Second, 200 * ms},
	}
	for _, tc := range tests {
		got := tickStep(tc.end)
		if got != tc.want {
			t.Errorf("tickStep(%v) = %v, want %v", tc.end, got, tc.want)
		}
		if n := tc.end/got + 1; n < 4 || n > 6 {
			t.Errorf("tickStep(%v) gives %d ticks, want 4–6", tc.end, n)
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{4, 16} {
		tl := ringTimeline(n)
		b.Run("gpus="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			var at units.Time
			for b.Loop() {
				Build(tl, at, Options{})
				at = (at + 37*units.Microsecond) % tl.End
			}
		})
	}
}

func TestCaptionNamesStep(t *testing.T) {
	tl := ringTimeline(4)
	tests := []struct {
		at           units.Time
		name, detail string
	}{
		{ms, "", ""},
		{6*ms + 100*units.Microsecond, "ring all-reduce", "reduce-scatter, step 1"},
		{8*ms + 600*units.Microsecond, "ring all-reduce", "all-gather, step 6"},
	}
	for _, tc := range tests {
		dl := Build(tl, tc.at, Options{})
		name, _ := find(dl, "caption")
		detail, _ := find(dl, "caption/detail")
		if name.Text != tc.name || detail.Text != tc.detail {
			t.Errorf("caption at %v = %q / %q, want %q / %q", tc.at, name.Text, detail.Text, tc.name, tc.detail)
		}
	}
}

func TestClockLabel(t *testing.T) {
	for _, tc := range []struct {
		t    units.Time
		want string
	}{
		{0, "0"},
		{750, "750ns"},
		{600 * units.Microsecond, "600µs"},
		{12248082, "12.25ms"},
		{4938271, "4.938ms"},
		{12 * units.Millisecond, "12ms"},
		{-1500 * units.Microsecond, "-1.5ms"},
		{3*units.Second + 141592653, "3.142s"},
		{12345 * units.Second, "12345s"},
	} {
		if got := clockLabel(tc.t); got != tc.want {
			t.Errorf("clockLabel(%d) = %q, want %q", int64(tc.t), got, tc.want)
		}
	}
}
