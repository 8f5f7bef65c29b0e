//go:build browser

package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// requests records the URLs the page asks for while on is set.
type requests struct {
	mu   sync.Mutex
	on   bool
	urls []string
}

func (r *requests) listen(ev any) {
	if e, ok := ev.(*network.EventRequestWillBeSent); ok {
		r.mu.Lock()
		if r.on {
			r.urls = append(r.urls, e.Request.Method+" "+e.Request.URL)
		}
		r.mu.Unlock()
	}
}

func (r *requests) record(on bool) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = on
	return append([]string(nil), r.urls...)
}

// traceFiles are the profiler traces the test imports: the two shared
// ranks of the 128-rank A100 job (gzipped, as the profiler wrote them)
// when ../shared/traces is there, else two ranks ParaPlay writes of a
// simulated ring all-reduce (a clean clone).
func traceFiles(t *testing.T) []string {
	t.Helper()
	dir := os.Getenv("PARAPLAY_TRACES")
	if dir == "" {
		dir = filepath.Join(moduleRoot(t), "..", "shared", "traces")
	}
	var paths []string
	for _, name := range []string{"kineto-a100-128rank-rank0.json.gz", "kineto-a100-128rank-rank1.json.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			paths = append(paths, filepath.Join(dir, name))
		}
	}
	if len(paths) == 2 {
		return paths
	}
	t.Logf("shared traces not found in %s: importing traces ParaPlay writes", dir)
	s, err := scenario.FromQuery(map[string][]string{"gpus": {"2"}})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	paths = nil
	for g := range tl.GPUs {
		var b bytes.Buffer
		if err := kineto.WriteRank(&b, tl, g); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "rank"+strconv.Itoa(g)+".json")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// importHost reads the files as paraplay import does.
func importHost(t *testing.T, paths []string) *timeline.Timeline {
	t.Helper()
	var traces []*kineto.Trace
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := kinetotest.Decompress(f, p)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := kineto.Read(r, filepath.Base(p), kineto.Limits{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, tr)
	}
	tl, err := kineto.Timeline(traces)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestPlaygroundImportsTrace picks two ranks' profiler traces in the
// playground's file input: the page reads them locally, the app converts
// them with sim/kineto and plays them. It checks that the run has the
// host's import's spans and end, that the canvas draws (screenshot
// paraplay-trace-import.png: the measured kernels on the strip), that
// hovering a kernel makes the inspector name it, that no request is made
// while the files are read, and that a truncated file is refused over the
// canvas with the byte offset the command line gives.
func TestPlaygroundImportsTrace(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	reqs := &requests{}
	if err := chromedp.Listen(ctx, reqs.listen); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "play.html?gpus=4")
	waitFor(t, ctx, "the trace picker", `!document.getElementById("trace-section").hidden`)

	paths := traceFiles(t)
	want := importHost(t, paths)
	reqs.record(true)
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles("#trace-file", paths)); err != nil {
		t.Fatalf("picking the traces: %v", err)
	}
	waitFor(t, ctx, "the imported run", `document.getElementById("trace-status").textContent.startsWith("Showing") && window.paraplay.end === `+ftoa(float64(want.End)))
	t.Logf("%d files, %d spans imported and shown in %v", len(paths), len(want.Spans), time.Since(start).Round(time.Millisecond))
	if urls := reqs.record(false); len(urls) > 0 {
		t.Errorf("the page made %d requests while importing (want none: the files stay local): %v", len(urls), urls)
	}
	cur := eval[map[string]any](t, ctx, `paraplay.current()`)
	t.Logf("imported: %v: %v", cur["title"], cur["describe"])
	if cur["ok"] != true || !strings.Contains(cur["describe"].(string), "measured") {
		t.Errorf("current() after the import: %v", cur)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#busy .busy").length`); n != len(want.GPUs) {
		t.Errorf("the metrics panel shows %d GPUs; want %d", n, len(want.GPUs))
	}

	// Pause in the middle of the longest kernel and hover it on the strip.
	long := 0
	for i, s := range want.Spans {
		if s.End-s.Start > want.Spans[long].End-want.Spans[long].Start {
			long = i
		}
	}
	sp := want.Spans[long]
	at := sp.Start + (sp.End-sp.Start)/2
	eval[bool](t, ctx, `(paraplay.pause(), paraplay.seek(`+ftoa(float64(at))+`), true)`)
	waitFor(t, ctx, "the seek", `paraplay.state === "paused" && Math.abs(paraplay.simTime - `+ftoa(float64(at))+`) < 2`)
	hoverSpan(t, ctx, want, at, long)
	if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-trace-import.png"), 40)

	// A truncated file: the error over the canvas names the byte offset,
	// as paraplay import does.
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1)); err != nil {
		t.Fatal(err)
	}
	bad := truncated(t, paths[0])
	_, herr := kineto.Read(bytes.NewReader(mustRead(t, bad)), filepath.Base(bad), kineto.Limits{})
	if herr == nil {
		t.Fatal("the truncated file reads on the host")
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles("#trace-file", []string{bad})); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the refusal", `paraplay.state === "error"`)
	got := state(t, ctx).Error
	t.Logf("truncated: %q (host: %q)", got, herr)
	if got != herr.Error() || !strings.Contains(got, "byte ") {
		t.Errorf("the page says %q about the truncated file; want the command line's %q", got, herr)
	}
	screenshot(t, ctx, "paraplay-trace-import-error.png")
	noConsoleErrors(t, con)
}

// hoverSpan moves the pointer over span i on the strip at instant at and
// checks the inspector names its kernel.
func hoverSpan(t *testing.T, ctx context.Context, tl *timeline.Timeline, at units.Time, i int) {
	t.Helper()
	c := canvasOf(t, ctx)
	dl := scene.Build(tl, at, scene.Options{Width: c.w, Height: c.h})
	id := "strip/span/" + strconv.Itoa(i)
	for _, it := range dl.Items {
		if it.ID != id {
			continue
		}
		x, y := c.left+c.k*(it.X+it.W/2), c.top+c.k*(it.Y+it.H/2)
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the inspector on "+id, `paraplay.hover === "`+id+`"`)
		tip := eval[string](t, ctx, `paraplay.hoverText`)
		t.Logf("inspector: %q", tip)
		name := tl.Spans[i].Label
		if len(name) > 60 {
			name = name[:60] // the inspector cuts a long C++ name's arguments
		}
		if !strings.Contains(tip, name) {
			t.Errorf("the inspector reads %q over %s; want it to name the kernel %q", tip, id, name)
		}
		return
	}
	t.Errorf("the scene at %v draws no %s on the strip", at, id)
}

// truncated writes the first two thirds of the decompressed trace at path.
func truncated(t *testing.T, path string) string {
	t.Helper()
	data := mustRead(t, path)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), "truncated.json")
	if err := os.WriteFile(p, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
