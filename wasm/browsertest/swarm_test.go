//go:build browser

package browsertest

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// TestSwarmPeerMoves opens the internet article's SWARM demo in its full
// page and pauses it while the first peer moves to another stage: that
// peer's row must carry the replanning blue band (labelled with its new
// stage), which a frame before the first rebalance does not show. Look
// at paraplay-swarm-*.png.
func TestSwarmPeerMoves(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/internet-training.html")); err != nil {
		t.Fatal(err)
	}
	const title = "SWARM on eight mixed peers"
	waitFor(t, ctx, "the SWARM demo", `[...document.querySelectorAll("figure.demo")].some(f => f.dataset.title === "`+title+`")`)
	full := eval[string](t, ctx, `(() => {
		const f = [...document.querySelectorAll("figure.demo")].find(f => f.dataset.title === "`+title+`");
		const a = [...f.querySelectorAll("figcaption a")].find(a => a.textContent === "open full page");
		return a ? a.getAttribute("href") : "";
	})()`)
	if full == "" {
		t.Fatal("the SWARM demo has no full-page link")
	}
	q, err := url.ParseQuery(strings.TrimPrefix(full, "play.html?"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	var move *timeline.State
	for i := range tl.States {
		if tl.States[i].State == timeline.StateReplan {
			move = &tl.States[i]
			break
		}
	}
	if move == nil {
		t.Fatal("the SWARM demo moves no peer")
	}
	t.Logf("first move: peer %d to %s, %v–%v", move.GPU, move.Group, move.Start, move.End)

	open(t, ctx, base, full+"&autoplay=0")
	if st := state(t, ctx); st.Error != "" {
		t.Fatalf("the SWARM demo failed to load: %v", st)
	}
	pauseAt(t, ctx, float64(move.Start)/2, 1e6)
	before := screenshot(t, ctx, "paraplay-swarm-before.png")
	pauseAt(t, ctx, float64(move.Start+move.End)/2, 1e6)
	during := screenshot(t, ctx, "paraplay-swarm-moving.png")
	assertDrawn(t, during, 50)
	// The replanning band is #1d3f8c (scene's colReplan).
	if n := near(before, 0x1d, 0x3f, 0x8c, 10); n > 200 {
		t.Errorf("before the first move: %d pixels of the replanning blue, want almost none", n)
	}
	if n := near(during, 0x1d, 0x3f, 0x8c, 10); n < 200 {
		t.Errorf("while peer %d moves: %d pixels of the replanning blue, want ≥ 200", move.GPU, n)
	}
	noConsoleErrors(t, con)
}
