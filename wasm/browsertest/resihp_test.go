//go:build browser

package browsertest

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
)

// TestResiHPDemo opens the failures article's ResiHP demo in its full page
// and pauses it in the middle of the regroup: the GPUs of the new layout
// must carry the replanning blue band with their new place ("r1·s2"),
// which no frame before the first re-plan shows. Then it opens the
// demo's "side by side with checkpoint-restart" link: compare mode must
// load both runs. Look at the screenshots: paraplay-resihp-*.png.
func TestResiHPDemo(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/failures.html")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the ResiHP demo", `[...document.querySelectorAll("figure.demo")].some(f => f.dataset.title.includes("ResiHP"))`)
	links := eval[[]string](t, ctx, `(() => {
		const f = [...document.querySelectorAll("figure.demo")].find(f => f.dataset.title.includes("ResiHP"));
		return [...f.querySelectorAll("figcaption a")].map(a => a.textContent + "|" + a.getAttribute("href"));
	})()`)
	href := map[string]string{}
	for _, l := range links {
		text, h, _ := strings.Cut(l, "|")
		href[text] = h
	}
	full, beside := href["open full page"], href["side by side with checkpoint-restart"]
	if full == "" || beside == "" {
		t.Fatalf("the ResiHP demo's links %q; want the full page and the side-by-side", links)
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
	var replans [][2]float64
	for _, r := range tl.Recovery {
		if r.Kind == "replan" {
			replans = append(replans, [2]float64{float64(r.Start), float64(r.End)})
		}
	}
	if len(replans) != 2 {
		t.Fatalf("the demo re-plans %d times; want 2 (a re-partition, a regroup)", len(replans))
	}

	open(t, ctx, base, full+"&autoplay=0")
	if st := state(t, ctx); st.Error != "" {
		t.Fatalf("the ResiHP demo failed to load: %v", st)
	}
	pauseAt(t, ctx, replans[0][0]/2, 1e6)
	before := screenshot(t, ctx, "paraplay-resihp-slow.png")
	regroup := (replans[1][0] + replans[1][1]) / 2
	pauseAt(t, ctx, regroup, 1e6)
	during := screenshot(t, ctx, "paraplay-resihp-regroup.png")
	assertDrawn(t, during, 50)
	// The replanning band is #1d3f8c (scene's colReplan, opaque in the box).
	if n := near(before, 0x1d, 0x3f, 0x8c, 10); n > 200 {
		t.Errorf("before any re-plan: %d pixels of the replanning blue, want almost none", n)
	}
	if n := near(during, 0x1d, 0x3f, 0x8c, 10); n < 2000 {
		t.Errorf("during the regroup: %d pixels of the replanning blue, want ≥ 2000 (24 GPUs banded)", n)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+beside)); err != nil {
		t.Fatal(err)
	}
	side := func(i string) string {
		return `(() => { const f = document.querySelectorAll("#cmp-frames iframe")[` + i + `];
			const p = f && f.contentWindow && f.contentWindow.paraplay; return !!(p && p.frames > 0 && !p.error); })()`
	}
	waitFor(t, ctx, "run A (resihp)", side("0"))
	waitFor(t, ctx, "run B (checkpoint-restart)", side("1"))
	if err := chromedp.Do(ctx, chromedp.Sleep(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-resihp-beside.png"), 50)
	noConsoleErrors(t, con)
}
