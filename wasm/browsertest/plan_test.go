//go:build browser

package browsertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// planPage is a training scenario small enough to plan in the browser in
// seconds: Llama 3 8B with 1,024-token sequences on one server of four
// H100s, a global batch of 4 sequences.
const planPage = "play.html?model=llama3-8b&seq_len=1024&gpu=h100-sxm&nodes=1&gpus_per_node=4&dp=4&microbatches=1&autoplay=0"

// TestPlanTab runs the plan search from the side panel, checks the scatter
// is drawn on the canvas, clicks the best plan's point and checks that the
// animated scenario became that plan.
func TestPlanTab(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, planPage)
	before := eval[string](t, ctx, `window.paraplay.current().query`)
	if err := chromedp.Do(ctx, chromedp.Click(`#plan-start`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the search to start", `window.paraplay.planState().active && window.paraplay.planState().shown`)
	waitFor(t, ctx, "the search to end", `window.paraplay.planState().phase === "done" && window.paraplay.planState().bestX > 0`)
	st := eval[map[string]any](t, ctx, `window.paraplay.planState()`)
	t.Logf("plan state: %v", st)
	if st["simulated"].(float64) < 1 || st["plans"].(float64) < 10 {
		t.Errorf("search: %v; want plans enumerated and some simulated", st)
	}
	waitFor(t, ctx, "a frame of the scatter", `window.paraplay.frames > 0`)
	img := screenshot(t, ctx, "paraplay-plan-tab.png")
	if n, top := colours(img); n < 20 || top > 0.97 {
		t.Errorf("the scatter looks blank: %d colours, the commonest covering %.0f%%", n, 100*top)
	}
	if s := eval[string](t, ctx, `document.getElementById("plan-status").textContent`); !strings.Contains(s, "simulated") {
		t.Errorf("plan status: %q", s)
	}

	// Click the best plan's point: logical pixels → the canvas on the page.
	clickBestPlan(t, ctx)
	waitFor(t, ctx, "the picked plan to run", `window.paraplay.planState().pickedN === 1 && !window.paraplay.planState().shown &&
		window.paraplay.current().ok && window.paraplay.current().query !== `+jsString(before))
	after := eval[string](t, ctx, `window.paraplay.current().query`)
	picked := eval[string](t, ctx, `window.paraplay.planState().picked`)
	t.Logf("scenario: %s → %s (picked %s)", before, after, picked)
	for _, kv := range strings.Split(picked, "&") {
		if strings.HasPrefix(kv, "fidelity=") {
			continue
		}
		if !strings.Contains("&"+after+"&", "&"+kv+"&") {
			t.Errorf("the scenario on show lacks the picked plan's %s", kv)
		}
	}
	waitFor(t, ctx, "the address to follow", `location.search !== "?"+`+jsString(before))
	screenshot(t, ctx, "paraplay-plan-picked.png")
	noConsoleErrors(t, con)
}

// TestPlanEmbed opens the plan tab as an article embeds it (embed=1&plan=1):
// the search starts by itself, the scatter is drawn without the side
// panel, the playback bar's "Plans" button switches to the animation and
// back, and clicking the best plan's point runs it.
func TestPlanEmbed(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, planPage+"&embed=1&plan=1")
	waitFor(t, ctx, "the search to start by itself", `window.paraplay.planState().active && window.paraplay.planState().shown`)
	if side := eval[bool](t, ctx, `getComputedStyle(document.getElementById("side")).display === "none"`); !side {
		t.Errorf("embed=1 shows the side panel")
	}
	waitFor(t, ctx, "the search to end", `window.paraplay.planState().phase === "done" && window.paraplay.planState().bestX > 0`)
	waitFor(t, ctx, "the Plans button", `!document.getElementById("plan-bar").hidden && document.getElementById("plan-bar").textContent === "Animation"`)
	img := screenshot(t, ctx, "paraplay-plan-embed.png")
	if n, top := colours(img); n < 20 || top > 0.97 {
		t.Errorf("the embedded scatter looks blank: %d colours, the commonest covering %.0f%%", n, 100*top)
	}
	eval[bool](t, ctx, `(document.getElementById("plan-bar").click(), true)`)
	waitFor(t, ctx, "the animation", `!window.paraplay.planState().shown && document.getElementById("plan-bar").textContent === "Plans"`)
	eval[bool](t, ctx, `(document.getElementById("plan-bar").click(), true)`)
	waitFor(t, ctx, "the scatter again", `window.paraplay.planState().shown`)

	before := eval[string](t, ctx, `window.paraplay.current().query`)
	clickBestPlan(t, ctx)
	waitFor(t, ctx, "the picked plan to run", `window.paraplay.planState().pickedN === 1 && window.paraplay.current().ok &&
		window.paraplay.current().query !== `+jsString(before))
	after := eval[string](t, ctx, `window.paraplay.current().query`)
	if !strings.Contains("&"+after+"&", "&embed=1&") || strings.Contains("&"+after+"&", "&plan=1&") {
		t.Errorf("after the pick the address is %q; want embed=1 kept and plan=1 dropped (a reload shows the plan)", after)
	}
	screenshot(t, ctx, "paraplay-plan-embed-picked.png")
	noConsoleErrors(t, con)
}

// clickBestPlan clicks the best plan's point of the scatter (its logical
// pixels mapped to the canvas on the page), holding the button for a few
// frames: Ebitengine samples the mouse once per tick, and a
// software-rendered page may draw only a few a second.
func clickBestPlan(t *testing.T, ctx context.Context) {
	t.Helper()
	xy := eval[[]float64](t, ctx, `(() => { const c = document.querySelector("canvas").getBoundingClientRect();
		const s = window.paraplay.planState();
		return [c.left + s.bestX * c.width / s.width, c.top + s.bestY * c.height / s.height]; })()`)
	err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0], xy[1]),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.Sleep(400*time.Millisecond),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	if err != nil {
		t.Fatal(err)
	}
}

// TestPlanTabProgressAndCost watches a search in the plan tab: the
// progress the page reports advances while it runs (screened, bounded,
// simulated, the best so far), and the scatter carries the cost axis
// (dollars per million tokens beside the iteration time). It keeps a
// screenshot of the finished scatter.
func TestPlanTabProgressAndCost(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, planPage)
	if err := chromedp.Do(ctx, chromedp.Click(`#plan-start`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the search to start", `window.paraplay.planState().active && window.paraplay.planState().shown`)
	waitFor(t, ctx, "the search to end", `window.paraplay.planState().phase === "done" && window.paraplay.planState().bestX > 0`)
	st := eval[map[string]any](t, ctx, `window.paraplay.planState()`)
	t.Logf("plan state: %v", st)
	if st["best"].(float64) <= 0 || st["simulated"].(float64) < 1 || st["done"].(float64) < st["plans"].(float64) {
		t.Errorf("progress: %v; want every plan screened, some simulated and a best time", st)
	}
	if c, _ := st["costAxis"].(bool); !c {
		t.Errorf("the scatter has no cost axis: %v", st)
	}
	waitFor(t, ctx, "a frame of the scatter", `window.paraplay.frames > 0`)
	img := screenshot(t, ctx, "paraplay-plan-cost.png")
	if n, top := colours(img); n < 20 || top > 0.97 {
		t.Errorf("the scatter looks blank: %d colours, the commonest covering %.0f%%", n, 100*top)
	}
	noConsoleErrors(t, con)
}
