//go:build browser

package browsertest

import (
	"context"
	"image"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// TestLayerParallelSweeps opens the beyond-backprop article's multigrid
// demo in its full page: the run must end when the CLI's does; paused in
// the first relaxation every GPU computes (the cluster view shows sixteen
// GPUs in the forward colour), paused in the first coarse solve only one
// does. Look at paraplay-mgrit-relax.png and paraplay-mgrit-coarse.png.
func TestLayerParallelSweeps(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	full, tl := demoRun(t, ctx, base, "beyond-backprop.html", "Layer-parallel MGRIT")
	open(t, ctx, base, full+"&autoplay=0")
	if st := state(t, ctx); st.Error != "" || st.End != float64(tl.End) {
		t.Fatalf("got %v; want a run with no error ending at the CLI's %v", st, tl.End)
	}
	var relax, coarse timeline.Span
	for _, sp := range tl.Spans {
		if sp.Kind == timeline.Forward && sp.Label == "F-relax" && sp.GPU == 0 && relax.End == 0 {
			relax = sp
		}
		if sp.Kind == timeline.Forward && sp.Label == "coarse" && sp.GPU == 8 && coarse.End == 0 {
			coarse = sp
		}
	}
	count := func(sp timeline.Span, name string) int {
		pauseAt(t, ctx, float64(sp.Start+sp.End)/2, 1e6)
		img := screenshot(t, ctx, name)
		assertDrawn(t, img, 50)
		b := img.Bounds()
		top := image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+b.Dy()*53/100)
		// The forward colour is #4e79a7 (scene's stateStyle[Forward]).
		return near(img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(top), 0x4e, 0x79, 0xa7, 10)
	}
	all, one := count(relax, "paraplay-mgrit-relax.png"), count(coarse, "paraplay-mgrit-coarse.png")
	t.Logf("forward-coloured pixels in the cluster view: %d relaxing (%v), %d in the coarse solve (%v)", all, relax.Start, one, coarse.Start)
	if all < 4*one || all < 200 {
		t.Errorf("relaxation shows %d forward pixels, the coarse solve %d; want the sixteen GPUs relaxing at once to show ≥ 4× the one GPU of the coarse solve", all, one)
	}
	noConsoleErrors(t, con)
}

// demoRun finds the demo titled title in page and returns its full-page
// link and a simulation of the link's scenario.
func demoRun(t *testing.T, ctx context.Context, base, page, title string) (string, *timeline.Timeline) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+page)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, title, `[...document.querySelectorAll("figure.demo")].some(f => f.dataset.title.includes("`+title+`"))`)
	full := eval[string](t, ctx, `(() => {
		const f = [...document.querySelectorAll("figure.demo")].find(f => f.dataset.title.includes("`+title+`"));
		const a = [...f.querySelectorAll("figcaption a")].find(a => a.textContent === "open full page");
		return a ? a.getAttribute("href") : "";
	})()`)
	q, err := url.ParseQuery(strings.TrimPrefix(full, "play.html?"))
	if full == "" || err != nil {
		t.Fatalf("%s: full-page link %q (%v)", title, full, err)
	}
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return full, tl
}

// TestSPPOStaticDemo reads the long-sequences article's SPPO demo, a
// static table (the browser build leaves SPPO out): it must carry the
// simulator's GPU peak and host memory beside their closed forms and what
// offloading adds to the run.
func TestSPPOStaticDemo(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/long-sequences.html")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the static demo", `document.querySelectorAll("figure.static-run").length >= 1`)
	text := eval[string](t, ctx, `[...document.querySelectorAll("figure.static-run")].map(f => f.innerText).join("\n")`)
	t.Logf("static demo: %s", strings.Join(strings.Fields(text), " "))
	for _, want := range []string{"simulated run 40.3 s", "GPU peak memory 50.8 GiB; closed form 50.8 GiB", "169.8 GiB with nothing offloaded", "host memory per GPU 127.5 GiB", "offloading adds 132 ms"} {
		if !strings.Contains(text, want) {
			t.Errorf("the SPPO demo lacks %q", want)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector("figure.static-run").scrollIntoView({block: "center"}), true)`)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-sppo-static.png"), 20)
	noConsoleErrors(t, con)
}
