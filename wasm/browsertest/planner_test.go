//go:build browser

package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSitePlannerArticle reads the planner article: its two embedded
// planners show the finished scatter as a poster and the build's search in
// the caption, the Llama 3 405B search the build ran is tabulated beside
// Meta's layout, the screen's table is there with a row per candidate,
// and pressing play on the second planner opens the playground's plan tab
// with the search running by itself.
func TestSitePlannerArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/planner.html")); err != nil {
		t.Fatal(err)
	}
	const want = 2
	waitFor(t, ctx, "the posters", fmt.Sprintf(`[...document.querySelectorAll("figure.demo img.poster")].filter(i => i.complete && i.naturalWidth > 0).length >= %d`, want))
	captions := eval[[]string](t, ctx, `[...document.querySelectorAll("figure.demo figcaption")].map(c => c.innerText)`)
	if len(captions) != want {
		t.Fatalf("%d demo captions, want %d", len(captions), want)
	}
	for i, c := range captions {
		t.Logf("planner %d: %s", i+1, strings.Join(strings.Fields(c), " "))
		for _, w := range []string{"plans searched", "best: ", "why the others lost"} {
			if !strings.Contains(c, w) {
				t.Errorf("planner %d's caption lacks %q", i+1, w)
			}
		}
		eval[bool](t, ctx, fmt.Sprintf(`(document.querySelector("#demo-%d").scrollIntoView({block: "center"}), true)`, i+1))
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		assertDrawn(t, screenshot(t, ctx, fmt.Sprintf("paraplay-planner-demo%d.png", i+1)), 20)
	}
	// The 405B search the build ran: the best, its runners-up and the
	// three compare rows; then the screen's table of twelve candidates.
	if rows := eval[int](t, ctx, `document.querySelectorAll("figure.plan-search tbody tr").length`); rows < 5 || rows > 7 {
		t.Errorf("the Llama 3 405B search table has %d rows, want the best, up to 3 runners-up and 3 compare rows", rows)
	}
	if text := eval[string](t, ctx, `document.querySelector("figure.plan-search").innerText`); !strings.Contains(text, "run when the site was built") || !strings.Contains(text, "Meta's layout") {
		t.Errorf("the search table's text lacks the build's search or Meta's layout: %.300s", text)
	}
	if rows := eval[int](t, ctx, `document.querySelectorAll("figure.plan-table:not(.plan-search):not(.static-run) tbody tr").length`); rows != 12 {
		t.Errorf("the Llama 3 405B candidates table has %d rows, want 12", rows)
	}
	eval[bool](t, ctx, `(document.querySelector("figure.plan-search").scrollIntoView({block: "start"}), true)`)
	screenshot(t, ctx, "paraplay-planner-search.png")
	eval[bool](t, ctx, `(document.querySelector("figure.plan-table:not(.plan-search):not(.static-run)").scrollIntoView({block: "center"}), true)`)
	screenshot(t, ctx, "paraplay-planner-table.png")

	if src := eval[string](t, ctx, `document.querySelector("#demo-2").dataset.src`); !strings.Contains(src, "plan=1") {
		t.Errorf("the embedded planner's address %q lacks plan=1", src)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#demo-2 button.play`)); err != nil {
		t.Fatalf("pressing play on the second planner: %v", err)
	}
	waitFor(t, ctx, "the search to run in the iframe", `(() => {
		const f = document.querySelector("#demo-2 iframe");
		const p = f && f.contentWindow && f.contentWindow.paraplay;
		if (!p || !p.planState) return false;
		const s = p.planState();
		return s.active && s.shown && s.screened > 0 && p.frames > 0;
	})()`)
	if err := chromedp.Do(ctx, chromedp.Sleep(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	// A sparse scatter on white covers most of a full-width figure (which
	// fills the viewport), so only the colours say it is drawn.
	if n, share := colours(screenshot(t, ctx, "paraplay-planner-demo2-searching.png")); n < 20 {
		t.Errorf("the searching planner looks blank: %d distinct colours (want ≥ 20), most common covers %.1f%%", n, 100*share)
	}
	noConsoleErrors(t, con)
}
