//go:build browser

package browsertest

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"paraplay/sim/scene"
)

// TestLecture walks the example slide deck: every demo slide's iframe runs
// in presenter mode, only the shown slide runs one, and PageDown in the
// focused demo steps that demo to its next event without turning the page.
func TestLecture(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/lecture.html")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the first slide", `document.querySelector(".slide.current") && document.querySelector(".slide.current").id === "s1"`)
	srcs := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("iframe.demo")).map((f) => f.dataset.src)`)
	if len(srcs) < 3 {
		t.Fatalf("%d demos in the deck, want at least 3", len(srcs))
	}
	for i, src := range srcs {
		slide := i + 2
		press(t, ctx, kb.ArrowRight)
		cur := `document.querySelector(".slide.current")`
		frame := cur + `.querySelector("iframe.demo")`
		app := frame + `.contentWindow.paraplay`
		waitFor(t, ctx, "slide "+ftoa(float64(slide)), cur+`.id === "s`+ftoa(float64(slide))+`"`)
		waitFor(t, ctx, "demo "+ftoa(float64(i+1))+" to draw", `(() => { try { return `+app+`.frames > 0; } catch (e) { return false; } })()`)
		if st := eval[string](t, ctx, app+`.state`); st != "paused" {
			t.Errorf("demo %d: state %q, want paused (autoplay=0)", i+1, st)
		}
		if e := eval[string](t, ctx, app+`.error`); e != "" {
			t.Errorf("demo %d: error %q", i+1, e)
		}
		if n := eval[int](t, ctx, `Array.from(document.querySelectorAll("iframe.demo")).filter((f) => f.getAttribute("src")).length`); n != 1 {
			t.Errorf("slide %d: %d demos have a src, want only the shown one", slide, n)
		}
		if !strings.Contains(src, "present=1") {
			t.Errorf("demo %d is not in presenter mode: %s", i+1, src)
		}
		// PageDown in the focused demo steps it to its next presenter event.
		tl := simulateQuery(t, strings.TrimPrefix(src, "play.html?"))
		next := scene.NextEvent(scene.PresenterEvents(tl), 0)
		eval[bool](t, ctx, frame+`.focus(), true`)
		press(t, ctx, kb.PageDown)
		waitFor(t, ctx, "PageDown to step demo "+ftoa(float64(i+1)), app+`.simTime === `+ftoa(float64(next)))
		if id := eval[string](t, ctx, cur+`.id`); id != "s"+ftoa(float64(slide)) {
			t.Errorf("PageDown in the demo turned the page to %s", id)
		}
		if i == 1 {
			if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			assertDrawn(t, screenshot(t, ctx, "paraplay-lecture.png"), 30)
		}
		eval[bool](t, ctx, `document.activeElement.blur(), window.focus(), true`)
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
