//go:build browser

package browsertest

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// readerWidths are the widths readers' screenshots are taken at: a laptop
// and a phone.
var readerWidths = []struct {
	name          string
	width, height int64
}{{"1280", 1280, 800}, {"390", 390, 844}}

// TestLectureTitleClearsNav opens the lecture deck at a laptop's and a
// phone's size: the first slide's last line must end above the slide
// buttons, which are fixed to the bottom of the window.
func TestLectureTitleClearsNav(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	for _, w := range readerWidths {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.width, w.height), chromedp.Navigate(base+"/lecture.html")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the first slide", `document.querySelector(".slide.current") && document.querySelector(".slide.current").id === "s1"`)
		waitFor(t, ctx, "fonts", `document.fonts.status === "loaded"`)
		// The lowest bottom of any of the slide's text, against the top
		// of the buttons, both as laid out (after any scrolling to the
		// end, which a slide taller than the window allows).
		got := eval[[]float64](t, ctx, `(() => {
			const s = document.querySelector(".slide.current");
			s.scrollTop = s.scrollHeight;
			let bottom = 0;
			for (const e of s.querySelectorAll("h1, p, li")) bottom = Math.max(bottom, e.getBoundingClientRect().bottom);
			return [bottom, document.getElementById("nav").getBoundingClientRect().top];
		})()`)
		screenshot(t, ctx, "paraplay-lecture-s1-"+w.name+".png")
		if got[0] > got[1] {
			t.Errorf("%s px: the first slide's text ends at %.0f px, below the top of the slide buttons at %.0f px", w.name, got[0], got[1])
		}
		press(t, ctx, kb.ArrowRight)
		waitFor(t, ctx, "the second slide's demo", `(() => { const f = document.querySelector(".slide.current iframe.demo"); try { return f.contentWindow.paraplay.frames > 0; } catch (e) { return false; } })()`)
		screenshot(t, ctx, "paraplay-lecture-s2-"+w.name+".png")
	}
	noConsoleErrors(t, con)
}

// TestHeroBarClearsStrip opens the index at a laptop's and a phone's size:
// the hero demo's playback bar must lie below its canvas, not over the
// strip's last GPU row, and fit its width.
func TestHeroBarClearsStrip(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	for _, w := range readerWidths {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.width, w.height), chromedp.Navigate(base+"/index.html")); err != nil {
			t.Fatal(err)
		}
		frame := `document.querySelector(".hero iframe")`
		waitFor(t, ctx, "the hero demo to draw", `(() => { try { return `+frame+`.contentWindow.paraplay.frames > 0; } catch (e) { return false; } })()`)
		eval[bool](t, ctx, frame+`.scrollIntoView({block: "center"}), true`)
		r := eval[[]float64](t, ctx, `(() => {
			const d = `+frame+`.contentDocument;
			const c = d.querySelector("canvas").getBoundingClientRect(), bar = d.getElementById("bar");
			let right = 0;
			for (const e of bar.children) if (e.offsetParent) right = Math.max(right, e.getBoundingClientRect().right);
			return [c.width, c.height, c.bottom, bar.getBoundingClientRect().top, right, d.documentElement.clientWidth];
		})()`)
		t.Logf("%s px: hero canvas %.0f×%.0f ending at %.0f, bar from %.0f, its last control ends at %.0f of %.0f", w.name, r[0], r[1], r[2], r[3], r[4], r[5])
		screenshot(t, ctx, fmt.Sprintf("paraplay-hero-%s.png", w.name))
		if r[3] < r[2] {
			t.Errorf("%s px: the hero's bar starts at %.0f px, over its canvas, which ends at %.0f px", w.name, r[3], r[2])
		}
		if r[4] > r[5] {
			t.Errorf("%s px: the hero's bar's controls end at %.0f px, past its width %.0f px", w.name, r[4], r[5])
		}
	}
	noConsoleErrors(t, con)
}
