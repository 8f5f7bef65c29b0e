//go:build browser

package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// minPosterText is the smallest text a reader should meet on a poster, in
// CSS px (site/demo.go's minTextCSS).
const minPosterText = 11

// posterText measures every poster of the page as shown: for each, the
// smallest font size in the SVG the page chose (the compact one in a narrow
// viewport, the <picture>'s <source>) times the scale the page shows it at
// (object-fit: contain of the SVG's own size into the img's box), and the
// kind of picture it is, from the items' IDs of the full poster (the
// compact one leaves a training run's panel out).
const posterText = `Promise.all([...document.querySelectorAll("figure.demo img.poster")].map(async (img) => {
  const load = async (u) => new DOMParser().parseFromString(await (await fetch(u)).text(), "image/svg+xml").documentElement;
  const shownURL = img.currentSrc || img.src, svg = await load(shownURL), full = await load(img.src);
  const w = +svg.getAttribute("width"), h = +svg.getAttribute("height"), r = img.getBoundingClientRect();
  const scale = Math.min(r.width / w, r.height / h);
  let min = Infinity, id = "";
  for (const t of svg.querySelectorAll("text")) {
    const s = +t.getAttribute("font-size");
    if (s < min) { min = s; id = t.getAttribute("data-id") || ""; }
  }
  const has = (p) => !!full.querySelector('[data-id^="' + p + '"]');
  const kind = has("plan") ? "plan scatter" : has("detector") ? "faults" : has("mem") ? "training" : has("rlhf") ? "rlhf" :
    has("async") ? "async" : has("switch") ? "topology" : has("xfer") ? "ring" : "other";
  return { poster: new URL(shownURL).pathname.split("/").pop(), kind: kind, css: min * scale, id: id, width: r.width };
}))`

// posterKinds are the kinds of picture a poster of each must be measured.
var posterKinds = []string{"ring", "topology", "training", "faults", "async", "rlhf", "plan scatter"}

type posterMeasure struct {
	Poster string  `json:"poster"`
	Kind   string  `json:"kind"`
	CSS    float64 `json:"css"`
	ID     string  `json:"id"`
	Width  float64 `json:"width"`
}

// articles lists the index's articles, by file name.
func articles(t *testing.T, ctx context.Context, base string) []string {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/index.html")); err != nil {
		t.Fatal(err)
	}
	pages := eval[[]string](t, ctx, `[...document.querySelectorAll("ol.articles li > a")].map(a => a.getAttribute("href"))`)
	if len(pages) < 10 {
		t.Fatalf("the index lists %d articles", len(pages))
	}
	return pages
}

// TestArticlePosters opens every article at 1280 px and at 390 px (a
// phone, which shows the compact posters), saves a screenshot of each
// whole page for a person to look at, and measures every poster's
// smallest text as shown: at both widths it must be at least 11 CSS px on
// every poster, so on one of each kind of picture (ring, topology,
// training, faults, async, RLHF, plan scatter).
func TestArticlePosters(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	pages := articles(t, ctx, base)
	for _, width := range []int64{1280, 390} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 800)); err != nil {
			t.Fatal(err)
		}
		kinds := map[string]posterMeasure{}
		for _, p := range pages {
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+p)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, p+"'s posters", `[...document.querySelectorAll("figure.demo img.poster")].every(i => i.complete && i.naturalWidth > 0)`)
			shot(t, ctx, fmt.Sprintf("paraplay-article-%s-%d.jpg", strings.TrimSuffix(p, ".html"), width))
			measured, err := chromedp.Run(ctx, chromedp.Evaluate[[]posterMeasure](posterText, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("%s: measuring the posters: %v", p, err)
			}
			for _, m := range measured {
				if m.CSS < minPosterText {
					t.Errorf("%d px: %s: %s (%s) shown %.0f px wide: its smallest text %q is %.1f CSS px, want ≥ %d", width, p, m.Poster, m.Kind, m.Width, m.ID, m.CSS, minPosterText)
				}
				if k, ok := kinds[m.Kind]; !ok || m.CSS < k.CSS {
					kinds[m.Kind] = m
				}
			}
		}
		names := make([]string, 0, len(kinds))
		for k := range kinds {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			m := kinds[k]
			t.Logf("%4d px: %-12s smallest text %.2f CSS px (%s, %q, shown %.0f px wide)", width, k, m.CSS, m.Poster, m.ID, m.Width)
		}
		for _, k := range posterKinds {
			if _, ok := kinds[k]; !ok {
				t.Errorf("%d px: no article poster of kind %s was measured", width, k)
			}
		}
	}
	noConsoleErrors(t, con)
}

// shot saves a JPEG of the whole page as os.TempDir()/name.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(70))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(os.TempDir(), name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestArticleFirstFrames starts one demo of each kind of picture in its
// article at 1280 px and at 390 px (a phone, where the canvas is laid out
// compact) and reads the live frame's smallest text
// (window.paraplay.minText, device pixels) as CSS px: at least 11, as on
// the posters.
func TestArticleFirstFrames(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	for _, width := range []int64{1280, 390} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 800)); err != nil {
			t.Fatal(err)
		}
		for _, d := range firstFrameDemos {
			firstFrame(t, ctx, base, width, d.page, d.n, d.kind)
		}
	}
	noConsoleErrors(t, con)
}

// firstFrameDemos are the demos TestArticleFirstFrames starts: one of each
// kind of picture.
var firstFrameDemos = []struct {
	page string
	n    int
	kind string
}{
	{"failures.html", 1, "faults"}, {"pipeline.html", 1, "pipeline"}, {"pipeline.html", 8, "training"},
	{"collectives.html", 2, "topology"}, {"collectives.html", 1, "ring"}, {"rlhf.html", 2, "rlhf"},
	{"local-sgd.html", 1, "async"},
}

// firstFrame starts demo n of page at the viewport's width and checks
// the smallest text of its first live frame.
func firstFrame(t *testing.T, ctx context.Context, base string, width int64, page string, n int, kind string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+page)); err != nil {
		t.Fatal(err)
	}
	demo := fmt.Sprintf("#demo-%d", n)
	waitFor(t, ctx, page+"'s play buttons", `!!document.querySelector("`+demo+` button.play:not([hidden])")`)
	eval[bool](t, ctx, `(document.querySelector("`+demo+`").scrollIntoView({block: "center"}), document.querySelector("`+demo+` button.play").click(), true)`)
	app := `document.querySelector("` + demo + ` iframe").contentWindow`
	waitFor(t, ctx, page+" demo's first frame", `(() => { try { const p = `+app+`.paraplay; return !!(p && p.frames > 1 && p.minText > 0); } catch (e) { return false; } })()`)
	css := eval[float64](t, ctx, app+`.paraplay.minText / `+app+`.devicePixelRatio`)
	w := eval[float64](t, ctx, `document.querySelector("`+demo+` iframe").getBoundingClientRect().width`)
	t.Logf("%4d px: %s demo %d (%s), %.0f px wide: smallest text %.2f CSS px", width, page, n, kind, w, css)
	if css < minPosterText {
		t.Errorf("%d px: %s demo %d (%s): the live frame's smallest text is %.2f CSS px, want ≥ %d", width, page, n, kind, css, minPosterText)
	}
	shot(t, ctx, fmt.Sprintf("paraplay-first-frame-%s-%d-%d.jpg", strings.TrimSuffix(page, ".html"), n, width))
}
