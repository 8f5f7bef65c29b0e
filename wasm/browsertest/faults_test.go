//go:build browser

package browsertest

import (
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
)

// faultQuery is the elastic fault scenario of sim/scenario/testdata as a
// play.html query, and the time of its fail-stop.
func faultQuery(t *testing.T) (string, float64, float64) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "sim", "scenario", "testdata", "faults-elastic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	var fail float64
	for _, r := range tl.Recovery {
		if r.Kind == "fail" {
			fail = float64(r.Start)
		}
	}
	return s.Query().Encode(), fail, float64(tl.End)
}

// near counts the pixels within tol of colour (r, g, b) in each channel.
func near(img image.Image, r, g, b, tol int) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if abs(int(pr>>8)-r) <= tol && abs(int(pg>>8)-g) <= tol && abs(int(pb>>8)-b) <= tol {
				n++
			}
		}
	}
	return n
}

func abs(x int) int { return max(x, -x) }

// TestFaultScenario opens the elastic fault scenario, pauses just after
// GPU 6 fails, then near the end: the failed GPU must show (the red of
// its cross and of the slow GPU's hatching) and, after the recovery, the
// dropped replica's grey. Look at the screenshots: paraplay-faults-*.png.
func TestFaultScenario(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	q, fail, end := faultQuery(t)
	open(t, ctx, base, "play.html?"+q)
	if st := state(t, ctx); st.Error != "" {
		t.Fatalf("the fault scenario failed to load: %v", st)
	}
	shot := func(at float64, name string) image.Image {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`paraplay.pause(); paraplay.seek(`+ftoa(at)+`)`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the seek", `Math.abs(window.paraplay.simTime - `+ftoa(at)+`) < 1e6 && window.paraplay.state === "paused"`)
		if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil { // a few frames at the new time
			t.Fatal(err)
		}
		return screenshot(t, ctx, name)
	}
	during := shot(fail+20e6, "paraplay-faults-failed.png")
	assertDrawn(t, during, 50)
	// The cross and the hatching are #a31212; the failed box is grey.
	if n := near(during, 0xa3, 0x12, 0x12, 40); n < 200 {
		t.Errorf("just after the failure: %d pixels of the cross/hatch red, want ≥ 200", n)
	}
	after := shot(end*0.97, "paraplay-faults-recovered.png")
	if n := near(after, 0xb0, 0xb0, 0xb0, 6); n < 2000 {
		t.Errorf("after the recovery: %d pixels of the dropped replica's grey, want ≥ 2000", n)
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
