//go:build browser

package browsertest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// benchEnabled skips a benchmark test unless PARAPLAY_BENCH=1 (./build.sh
// bench sets it): they take a while and their numbers are for people.
func benchEnabled(t *testing.T) {
	if os.Getenv("PARAPLAY_BENCH") != "1" {
		t.Skip("set PARAPLAY_BENCH=1 (./build.sh bench) to measure")
	}
}

// TestBenchFPS reports the frame rate at 1280×800 of the largest scenarios
// the URL allows today (scenario.MaxGPUs is 64), playing at ×1 with the
// canvas alone (embed=1) and in the full playground.
func TestBenchFPS(t *testing.T) {
	benchEnabled(t)
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		t.Logf("load average before measuring: %s (figures mean little above ~1 on 2 cores)", strings.TrimSpace(string(l)))
	}
	base := serve(t)
	cases := []struct{ name, query string }{
		{"ring all-reduce, 64 GPUs, ideal links", "strategy=collective&gpus=64&size=256MiB"},
		{"ring all-reduce, 8×8 H100 cluster", "strategy=collective&gpu=h100-sxm&nodes=8&gpus_per_node=8&size=256MiB"},
		{"data parallel, 64 GPUs", "gpus=64"},
		{"ring all-reduce, 64×8 H100 (512 GPUs)", "strategy=collective&gpu=h100-sxm&nodes=64&gpus_per_node=8&size=256MiB"},
	}
	// The ceiling: a minimal Ebitengine page built the same way, filling
	// the same canvas each frame (./build.sh bench puts it in bench/).
	if _, err := os.Stat(filepath.Join(siteDir(t), "bench", "minimal.wasm")); err == nil {
		ctx, _ := browser(t)
		open(t, ctx, base, "bench/minimal.html")
		a := eval[float64](t, ctx, `performance.now()`)
		f0 := eval[int](t, ctx, `(window.paraplay && window.paraplay.frames) || 0`)
		time.Sleep(5 * time.Second)
		b := eval[float64](t, ctx, `performance.now()`)
		f1 := eval[int](t, ctx, `(window.paraplay && window.paraplay.frames) || 0`)
		t.Logf("%-40s %-10s %5.1f frames/s", "minimal Ebitengine page (ceiling)", "", float64(f1-f0)/((b-a)/1000))
		chromedp.Cancel(ctx)
	}
	for _, c := range cases {
		for _, page := range []string{"embed=1&", ""} {
			ctx, _ := browser(t)
			open(t, ctx, base, "play.html?"+page+c.query)
			waitFor(t, ctx, "the fps meter", `window.paraplay.fps > 0`)
			a := state(t, ctx)
			time.Sleep(5 * time.Second)
			b := state(t, ctx)
			fps := eval[float64](t, ctx, `window.paraplay.fps`)
			buildMs := eval[float64](t, ctx, `window.paraplay.buildMs`)
			drawMs := eval[float64](t, ctx, `window.paraplay.drawMs`)
			repainted := eval[float64](t, ctx, `window.paraplay.repainted`)
			// Close this browser before the next case: a browser left
			// animating in the background took a core from every later
			// measurement (the figures of earlier sessions suffered).
			chromedp.Cancel(ctx)
			mode := "playground"
			if page != "" {
				mode = "embed"
			}
			t.Logf("%-40s %-10s %5.1f frames/s (window.paraplay.fps %5.1f; Go per frame: scene %.1f ms, batch %.1f ms; last frame repainted %.0f%% of the canvas)",
				c.name, mode, float64(b.Frames-a.Frames)/5, fps, buildMs, drawMs, 100*repainted)
		}
	}
}

// TestBenchFirstFrame compares the time from navigation to the first frame
// of play.html with a minimal Ebitengine page built the same way
// (wasm/minimal, which ./build.sh bench puts in bench/), in fresh
// browsers, and reports the median of five.
func TestBenchFirstFrame(t *testing.T) {
	benchEnabled(t)
	dir := siteDir(t)
	if _, err := os.Stat(filepath.Join(dir, "bench", "minimal.wasm")); err != nil {
		t.Skipf("no bench/minimal.wasm in %s: run ./build.sh bench", dir)
	}
	base := serve(t)
	pages := []string{"play.html", "bench/minimal.html", "play.html?strategy=collective&gpus=64"}
	// Rounds interleave the pages, so that a drift in the machine's load
	// falls on all of them alike; five rounds, because one fresh browser's
	// start varies by a second.
	const rounds = 5
	ds := make([][]time.Duration, len(pages))
	for range rounds {
		for i, page := range pages {
			ctx, _ := browser(t)
			ds[i] = append(ds[i], open(t, ctx, base, page))
			chromedp.Cancel(ctx)
		}
	}
	for i, page := range pages {
		slices.Sort(ds[i])
		t.Logf("time to first frame %-40s median %v (of %v)", page, ds[i][rounds/2].Round(time.Millisecond), ds[i])
	}
	t.Logf("time to first frame: play.html / minimal page = %.2f (the issue asks for at most 1.3)",
		float64(ds[0][rounds/2])/float64(ds[1][rounds/2]))
}

// TestBenchRun times window.paraplay.run — decode, simulate, summarise — for
// 64-GPU scenarios, the re-run a control change does; the goal is under a
// second.
func TestBenchRun(t *testing.T) {
	benchEnabled(t)
	base := serve(t)
	ctx, _ := browser(t)
	open(t, ctx, base, "play.html")
	for _, q := range []string{
		"gpus=64",
		"strategy=collective&gpus=64&size=256MiB",
		"strategy=collective&gpus=64&algo=tree&size=256MiB&chunks=8",
		"strategy=collective&gpu=h100-sxm&nodes=8&gpus_per_node=8&algo=hierarchical&size=256MiB",
		"strategy=collective&gpu=h100-sxm&nodes=4&gpus_per_node=16&algo=ring&size=1GiB&chunks=4",
	} {
		ms := eval[float64](t, ctx, `(() => { const t0 = performance.now(); const r = paraplay.run(`+jsString(q)+`);
			if (!r.ok) throw new Error(r.error); return performance.now() - t0; })()`)
		t.Logf("run %-90s %6.0f ms", q, ms)
		if ms > 1000 {
			t.Errorf("run %s took %.0f ms, want under a second", q, ms)
		}
	}
}
