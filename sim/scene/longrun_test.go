package scene_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// weekReport is the long run of the playground's "Failures over a week".
func weekReport(t testing.TB) (scenario.Scenario, fault.Report) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "scenario", "testdata", "long", "llama3-8b-week.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	l, err := training.NewLong(s, s.Failures.Duration, 0)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	return s, rep
}

// TestLongRunGoldenSVG keeps the long-run view of the week at its end
// and half-way as golden SVGs.
func TestLongRunGoldenSVG(t *testing.T) {
	s, rep := weekReport(t)
	for _, c := range []struct {
		name string
		frac float64
	}{{"long_week_end.svg", 1}, {"long_week_half.svg", 0.5}} {
		dl := scene.LongRun(rep, s.Title(), atFrac(rep, c.frac), scene.Options{Width: 960, Height: 600})
		checkGoldenSVG(t, c.name, dl)
	}
}

func atFrac(rep fault.Report, frac float64) units.Time {
	return units.Time(math.Round(float64(rep.Wall) * frac))
}

// The panel prints the report's own numbers, and the goodput line ends
// at the report's goodput.
func TestLongRunNumbersAreTheReports(t *testing.T) {
	s, rep := weekReport(t)
	if rep.Failures == 0 || len(rep.Phases) == 0 {
		t.Fatalf("the week had %d failures and %d phases: nothing to draw", rep.Failures, len(rep.Phases))
	}
	dl := scene.LongRun(rep, s.Title(), rep.Wall, scene.Options{})
	text := map[string]string{}
	for _, it := range dl.Items {
		if it.Shape == scene.Text {
			text[it.ID] = it.Text
		}
	}
	want := map[string]string{
		"long/panel/failures":    "failures: " + strconv.Itoa(rep.Failures),
		"long/panel/rate":        "failures per hour: " + strconv.FormatFloat(rep.FailuresPerHour, 'f', 3, 64),
		"long/panel/goodput":     "goodput: " + strconv.FormatFloat(100*rep.Goodput, 'f', 1, 64) + "%",
		"long/panel/young":       "Young's interval: " + fault.Human(fault.YoungInterval(s.Recovery.CheckpointCost, rep.MTBF)),
		"long/panel/at/failures": "failures so far: " + strconv.Itoa(rep.Failures),
		"long/panel/at/goodput":  "goodput so far: " + strconv.FormatFloat(100*rep.Goodput, 'f', 1, 64) + "%",
	}
	for id, w := range want {
		if text[id] != w {
			t.Errorf("%s: got %q, want %q", id, text[id], w)
		}
	}
	markers := 0
	for _, it := range dl.Items {
		if strings.HasPrefix(it.ID, "long/failure/") && !strings.HasSuffix(it.ID, "/line") {
			markers++
		}
	}
	if markers != rep.Failures {
		t.Errorf("got %d failure markers, want %d", markers, rep.Failures)
	}
	pts := scene.GoodputCurve(rep, 100)
	if last := pts[len(pts)-1]; last.At != rep.Wall || math.Abs(last.Goodput-rep.Goodput) > 1e-12 {
		t.Errorf("goodput curve ends at %+v, want %v at %v", last, rep.Goodput, rep.Wall)
	}
	if got := scene.UsefulAt(rep, rep.Wall); got != rep.Useful {
		t.Errorf("UsefulAt(end) = %v, want the report's %v", got, rep.Useful)
	}
}

// Same report, same instant: the same drawing; and the playhead only
// reveals what happened before it.
func TestLongRunDeterministicAndRevealed(t *testing.T) {
	s, rep := weekReport(t)
	_, rep2 := weekReport(t)
	half := atFrac(rep, 0.5)
	var a, b bytes.Buffer
	if err := scene.WriteSVG(&a, scene.LongRun(rep, s.Title(), half, scene.Options{})); err != nil {
		t.Fatal(err)
	}
	if err := scene.WriteSVG(&b, scene.LongRun(rep2, s.Title(), half, scene.Options{})); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two runs of the same scenario drew differently")
	}
	before := 0
	for _, h := range rep.Hits {
		if h.At <= half {
			before++
		}
	}
	dl := scene.LongRun(rep, s.Title(), half, scene.Options{})
	got := 0
	for _, it := range dl.Items {
		if strings.HasPrefix(it.ID, "long/failure/") && !strings.HasSuffix(it.ID, "/line") {
			got++
		}
	}
	if got != before || before == 0 || before == rep.Failures {
		t.Errorf("half-way: got %d markers, want %d of %d", got, before, rep.Failures)
	}
}

// Hovering a failure's marker names its cause and time.
func TestLongRunHoverDescribesAFailure(t *testing.T) {
	s, rep := weekReport(t)
	dl := scene.LongRun(rep, s.Title(), rep.Wall, scene.Options{})
	for _, it := range dl.Items {
		if it.ID != "long/failure/0" {
			continue
		}
		id, ok := scene.HitTest(dl, it.X+it.W/2, it.Y+it.H/2)
		if !ok || id != "long/failure/0" {
			t.Fatalf("HitTest on the first marker: got %q, %v", id, ok)
		}
		d := scene.DescribeLong(rep, id)
		h := rep.Hits[0]
		if !strings.Contains(d, "cause "+h.Cause) || !strings.Contains(d, fault.Human(h.At)) {
			t.Errorf("DescribeLong: got %q, want cause %s and time %s", d, h.Cause, fault.Human(h.At))
		}
		return
	}
	t.Fatal("no marker for the first failure")
}

func BenchmarkLongRunFrame(b *testing.B) {
	s, rep := weekReport(b)
	for b.Loop() {
		scene.LongRun(rep, s.Title(), atFrac(rep, 0.7), scene.Options{})
	}
}

// StripTimeAt scrubs the long-run view along its time axis.
func TestLongRunScrubs(t *testing.T) {
	s, rep := weekReport(t)
	dl := scene.LongRun(rep, s.Title(), rep.Wall/3, scene.Options{})
	var axis scene.Item
	for _, it := range dl.Items {
		if it.ID == "axis" {
			axis = it
		}
	}
	mid := (axis.X + axis.X2) / 2
	got, inside := scene.StripTimeAt(dl, rep.Wall, mid, axis.Y-50)
	if want := rep.Wall / 2; !inside || math.Abs(float64(got-want)) > float64(rep.Wall)/1000 {
		t.Errorf("StripTimeAt(middle of the axis) = %v, %v; want %v, true", got, inside, want)
	}
}
