//go:build browser

package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// readDemos reads an article as a newcomer would: it opens page, waits for
// want demo posters, checks there are want captions, logs each, scrolls to
// each demo and saves it as paraplay-<prefix>-demo<N>.png (asserted drawn),
// and returns the captions for the caller's own checks.
func readDemos(t *testing.T, ctx context.Context, base, page string, want int, prefix string) []string {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+page)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the posters", fmt.Sprintf(`[...document.querySelectorAll("figure.demo img.poster")].filter(i => i.complete && i.naturalWidth > 0).length >= %d`, want))
	captions, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("figure.demo figcaption")].map(c => c.innerText)`))
	if len(captions) != want {
		t.Fatalf("%s: %d demo captions, want %d", page, len(captions), want)
	}
	for i, c := range captions {
		t.Logf("demo %d: %s", i+1, strings.Join(strings.Fields(c), " "))
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector("#demo-%d").scrollIntoView({block: "center"}), true)`, i+1))); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		assertDrawn(t, screenshot(t, ctx, fmt.Sprintf("paraplay-%s-demo%d.png", prefix, i+1)), 20)
	}
	return captions
}

// playDemo presses play on demo n of the open article, waits for its first
// frame and for its clock to move, lets it play two seconds and saves
// paraplay-<prefix>-demo<n>-playing.png (asserted drawn).
func playDemo(t *testing.T, ctx context.Context, n int, prefix string) {
	t.Helper()
	demo := fmt.Sprintf("#demo-%d", n)
	if err := chromedp.Do(ctx, chromedp.Click(demo+` button.play`)); err != nil {
		t.Fatalf("pressing play on demo %d: %v", n, err)
	}
	player := `document.querySelector("` + demo + ` iframe").contentWindow.paraplay`
	waitFor(t, ctx, fmt.Sprintf("demo %d's first frame", n), `(() => {
		const f = document.querySelector("`+demo+` iframe");
		const p = f && f.contentWindow && f.contentWindow.paraplay;
		return !!(p && p.frames > 0);
	})()`)
	start, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](player+`.simTime`))
	waitFor(t, ctx, fmt.Sprintf("demo %d to animate", n), player+`.simTime !== `+ftoa(start))
	if err := chromedp.Do(ctx, chromedp.Sleep(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, fmt.Sprintf("paraplay-%s-demo%d-playing.png", prefix, n)), 50)
}

// pauseAt pauses the open player at simulated instant at (ns), waits until
// it shows an instant within tol ns of it, and gives the frame half a
// second to reach the screen.
func pauseAt(t *testing.T, ctx context.Context, at, tol float64) {
	t.Helper()
	eval[bool](t, ctx, `(paraplay.pause(), paraplay.seek(`+ftoa(at)+`), true)`)
	waitFor(t, ctx, "the seek", `Math.abs(window.paraplay.simTime - `+ftoa(at)+`) < `+ftoa(tol)+` && window.paraplay.state === "paused"`)
	time.Sleep(500 * time.Millisecond)
}
