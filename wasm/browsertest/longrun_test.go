//go:build browser

package browsertest

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/wasm/playground"
)

// TestLongRunPreset opens the "Failures over a week" preset: the page
// must draw the long-run view (the useful-work green, the lost-work red),
// play its seven days in tens of seconds at ×1, print the report's
// failure count in the metrics, and name a failure's cause under the
// mouse. Look at the screenshot: paraplay-longrun.png.
func TestLongRunPreset(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?"+playground.WeekQuery+"&autoplay=0")
	if st := state(t, ctx); st.Error != "" {
		t.Fatalf("the week failed to load: %v", st)
	}
	q, err := url.ParseQuery(playground.WeekQuery)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := playground.LongRun(s)
	if err != nil {
		t.Fatal(err)
	}
	if st := state(t, ctx); st.End != float64(rep.Wall) {
		t.Errorf("the clock ends at %.0f ns, want the run's wall time %d", st.End, rep.Wall)
	}
	eval[bool](t, ctx, `(paraplay.pause(), paraplay.seek(paraplay.end), true)`)
	waitFor(t, ctx, "the end", `paraplay.simTime === paraplay.end`)
	time.Sleep(500 * time.Millisecond)
	img := screenshot(t, ctx, "paraplay-longrun.png")
	assertDrawn(t, img, 30)
	if n := near(img, 0x2e, 0x7d, 0x32, 12); n < 3000 {
		t.Errorf("%d pixels of the useful-work green, want ≥ 3000", n)
	}
	if n := near(img, 0x2a, 0x9d, 0x8f, 12); n < 500 {
		t.Errorf("%d pixels of the checkpoint teal, want ≥ 500", n)
	}
	if got, want := eval[string](t, ctx, `document.querySelector('[data-metric="failures"]').textContent`), strconv.Itoa(rep.Failures); got != want {
		t.Errorf("metrics: %s failures, want %s", got, want)
	}

	// Hover the first failure's marker, placed where the scene puts it on
	// a canvas of this size.
	cw := eval[float64](t, ctx, `document.querySelector("canvas").width`)
	ch := eval[float64](t, ctx, `document.querySelector("canvas").height`)
	k := eval[float64](t, ctx, `document.querySelector("canvas").getBoundingClientRect().width`) / cw
	left := eval[float64](t, ctx, `document.querySelector("canvas").getBoundingClientRect().left`)
	top := eval[float64](t, ctx, `document.querySelector("canvas").getBoundingClientRect().top`)
	dl := scene.LongRun(rep, s.Title(), rep.Wall, scene.Options{Width: cw, Height: ch})
	for _, it := range dl.Items {
		if it.ID != "long/failure/0" {
			continue
		}
		x, y := left+k*(it.X+it.W/2), top+k*(it.Y+it.H/2)
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, ctx, "the failure's tooltip", `paraplay.hover === "long/failure/0"`)
	if tip := eval[string](t, ctx, `paraplay.hoverText`); !strings.Contains(tip, "cause "+rep.Hits[0].Cause) {
		t.Errorf("tooltip %q: want the first failure's cause %s", tip, rep.Hits[0].Cause)
	}
	screenshot(t, ctx, "paraplay-longrun-hover.png")

	// At ×1 the week plays in LongRunSeconds: after one real second the
	// clock has moved about a fortieth of the run.
	eval[bool](t, ctx, `(paraplay.seek(0), paraplay.setSpeed && paraplay.setSpeed(1), paraplay.play(), true)`)
	time.Sleep(time.Second)
	st := state(t, ctx)
	if f := st.SimTime / st.End; f <= 0 || f > 3.0/playground.LongRunSeconds {
		t.Errorf("after 1 s at ×1 the clock is at %.3f of the run, want (0, %.3f]", f, 3.0/playground.LongRunSeconds)
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
