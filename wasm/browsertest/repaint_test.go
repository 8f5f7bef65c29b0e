//go:build browser

package browsertest

import (
	"context"
	"image"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestPartialRepaintMatchesFull checks the app's partial repainting
// (scene.Damage: only the regions that changed since the last frame are
// redrawn, the rest of the canvas is kept) against a full repaint of the
// same instant: after playing the 8×8 H100 ring — the 64-GPU view with the
// most items — for a while with partial frames, then pausing, the canvas
// must be pixel for pixel what a full repaint draws. It also checks that
// partial frames really happen there (the strip, a third of the canvas,
// stays as it is from frame to frame).
func TestPartialRepaintMatchesFull(t *testing.T) {
	ctx, con := browser(t)
	base := serve(t)
	open(t, ctx, base, "play.html?embed=1&strategy=collective&gpu=h100-sxm&nodes=8&gpus_per_node=8&size=256MiB")
	waitFor(t, ctx, "a partial repaint while playing",
		`window.paraplay.state === "playing" && window.paraplay.repainted > 0 && window.paraplay.repainted < 0.5`)
	time.Sleep(1500 * time.Millisecond) // many partial frames
	// The comparison is about the canvas: hide the playback bar that
	// overlays it (it fades in on pause, which a fast machine catches
	// mid-transition).
	eval[any](t, ctx, `document.getElementById("bar").style.visibility = "hidden"`)
	eval[any](t, ctx, `window.paraplay.pause()`)
	f := eval[int](t, ctx, `window.paraplay.frames`)
	waitFor(t, ctx, "frames after pausing", `window.paraplay.frames > `+strconv.Itoa(f+5))
	partial := screenshot(t, ctx, "paraplay-repaint-partial.png")
	eval[any](t, ctx, `window.paraplay.fullRedraw = true`)
	f = eval[int](t, ctx, `window.paraplay.frames`)
	waitFor(t, ctx, "full repaints", `window.paraplay.frames > `+strconv.Itoa(f+5)+` && window.paraplay.repainted === 1`)
	full := screenshot(t, ctx, "paraplay-repaint-full.png")
	// A clipped draw call may round a blended channel differently from a
	// full-canvas one (seen: by 1 of 255, on semi-transparent strip
	// items); a stale or missing region differs by far more.
	if n, x, y := differing(partial, full, 2); n > 0 {
		t.Errorf("%d pixels differ by more than 2/255 between the partially repainted canvas and a full repaint (first at %d,%d); see the screenshots", n, x, y)
	}
	if errs := con.list(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}

// differing counts the pixels where a channel of a and b differs by more
// than tol (of 255) and returns the first one.
func differing(a, b image.Image, tol uint32) (n, fx, fy int) {
	r := a.Bounds()
	if r != b.Bounds() {
		return r.Dx() * r.Dy(), 0, 0
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, aa := a.At(x, y).RGBA()
			br, bg, bb, ba := b.At(x, y).RGBA()
			if far(ar, br, tol) || far(ag, bg, tol) || far(ab, bb, tol) || far(aa, ba, tol) {
				if n == 0 {
					fx, fy = x, y
				}
				n++
			}
		}
	}
	return n, fx, fy
}

// far reports whether two 16-bit channels differ by more than tol/255.
func far(a, b, tol uint32) bool {
	d := max(a, b) - min(a, b)
	return d > tol*0x101
}

// TestSkippedScreenClear checks wasm/webgl's dropping of Ebitengine's
// per-frame clear of the canvas: the same paused instant must look the same
// pixel for pixel with the clear dropped and with it kept (the page opts
// out with window.paraplayKeepScreenClear), and the clear must really be
// dropped, once per frame drawn.
func TestSkippedScreenClear(t *testing.T) {
	base := serve(t)
	const path = "play.html?embed=1&autoplay=0&t=0.6ms&strategy=collective&gpu=h100-sxm&nodes=8&gpus_per_node=8&size=256MiB"
	shots := map[bool]image.Image{}
	for _, keep := range []bool{false, true} {
		ctx, con := browser(t)
		if keep {
			err := chromedp.Do(ctx, chromedp.Func(func(c context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(c, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: "window.paraplayKeepScreenClear = true"})
				return err
			}))
			if err != nil {
				t.Fatal(err)
			}
		}
		open(t, ctx, base, path)
		eval[any](t, ctx, `document.getElementById("bar").style.visibility = "hidden"`)
		f := eval[int](t, ctx, `window.paraplay.frames`)
		waitFor(t, ctx, "more frames", `window.paraplay.frames > `+strconv.Itoa(f+5))
		name := "paraplay-clear-dropped.png"
		if keep {
			name = "paraplay-clear-kept.png"
		}
		shots[keep] = screenshot(t, ctx, name)
		// Paused, Ebitengine stops presenting unchanged frames; playing,
		// it presents (and clears) every frame.
		const skipped = `(document.querySelector("canvas").getContext("webgl2").paraplaySkippedClears || 0)`
		eval[any](t, ctx, `window.paraplay.play()`)
		f0, s0 := eval[int](t, ctx, `window.paraplay.frames`), eval[int](t, ctx, skipped)
		time.Sleep(time.Second)
		f1, s1 := eval[int](t, ctx, `window.paraplay.frames`), eval[int](t, ctx, skipped)
		switch {
		case keep && s1 != 0:
			t.Errorf("with paraplayKeepScreenClear, %d clears were dropped; want none", s1)
		case !keep && (s1-s0 < (f1-f0)*9/10 || s1-s0 > f1-f0+1):
			t.Errorf("%d clears dropped in %d frames played; want one a frame", s1-s0, f1-f0)
		}
		if errs := con.list(); len(errs) > 0 {
			t.Errorf("console errors: %v", errs)
		}
		chromedp.Cancel(ctx)
	}
	if n, x, y := differing(shots[false], shots[true], 0); n > 0 {
		t.Errorf("%d pixels differ between the canvas with the clear dropped and with it kept (first at %d,%d); see the screenshots", n, x, y)
	}
	if d, top := colours(shots[false]); d < 20 || top > 0.95 {
		t.Errorf("the canvas with the clear dropped has %d colours, the commonest covering %.0f%%: blank", d, 100*top)
	}
}
