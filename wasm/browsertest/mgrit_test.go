//go:build browser

package browsertest

import (
	"context"
	"image"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
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

// TestSPPOOffloadsOnPCIe opens the long-sequences article's SPPO demo in
// its full page: the run must end when the CLI's does. Paused halfway
// through the longest offload, the scene's draw list for that instant (on
// the host, at the page's canvas size) places the offload's packet on the
// GPU's PCIe link to its host lane; the screenshot must paint it in its
// fill, and a hover over it must name the host it goes to. Look at
// paraplay-sppo-offload.png.
func TestSPPOOffloadsOnPCIe(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	full, tl := demoRun(t, ctx, base, "long-sequences.html", "SPPO")
	open(t, ctx, base, full+"&autoplay=0")
	if st := state(t, ctx); st.Error != "" || st.End != float64(tl.End) {
		t.Fatalf("got %v; want a run with no error ending at the CLI's %v", st, tl.End)
	}
	k := -1
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		if tl.GPUs[x.Dst].Role == "cpu" && (k < 0 || x.End-x.Start > tl.Transfers.At(k).End-tl.Transfers.At(k).Start) {
			k = i
		}
	}
	if k < 0 {
		t.Fatal("the run has no offload to a host")
	}
	x := tl.Transfers.At(k)
	at := (x.Start + x.End) / 2
	pauseAt(t, ctx, float64(at), 1e6)
	img := screenshot(t, ctx, "paraplay-sppo-offload.png")
	assertDrawn(t, img, 50)
	c := canvasOf(t, ctx)
	dl := scene.Build(tl, at, scene.Options{Width: c.w, Height: c.h})
	id := "xfer/" + strconv.Itoa(k)
	for _, it := range dl.Items {
		if it.ID != id {
			continue
		}
		px, py := c.left+c.k*(it.X+it.W/2), c.top+c.k*(it.Y+it.H/2)
		r, g, b, _ := img.At(int(px), int(py)).RGBA()
		if abs(int(r>>8)-int(it.Fill.R)) > 8 || abs(int(g>>8)-int(it.Fill.G)) > 8 || abs(int(b>>8)-int(it.Fill.B)) > 8 {
			t.Errorf("the offload's packet is painted #%02x%02x%02x at (%.0f, %.0f); want its fill #%02x%02x%02x", r>>8, g>>8, b>>8, px, py, it.Fill.R, it.Fill.G, it.Fill.B)
		}
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, px, py)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the offload's tooltip", `window.paraplay.hover === "`+id+`"`)
		tip := eval[string](t, ctx, `window.paraplay.hoverText`)
		t.Logf("offload %d (%v, %v–%v): %q", k, x.Bytes, x.Start, x.End, tip)
		if want := "→ " + tl.GPUs[x.Dst].Name; !strings.Contains(tip, want) {
			t.Errorf("the offload's tooltip reads %q; want %q in it", tip, want)
		}
		noConsoleErrors(t, con)
		return
	}
	t.Errorf("the scene draws no packet %s at %v", id, at)
}
