//go:build browser

package browsertest

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// eval runs a JavaScript expression and decodes its value.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// noConsoleErrors fails the test for every console error the page logged.
func noConsoleErrors(t *testing.T, con *console) {
	t.Helper()
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// setControl sets a form control's value through the DOM and fires change,
// as a reader's edit does.
func setControl(t *testing.T, ctx context.Context, name, value string) {
	t.Helper()
	js := `(() => { const e = document.getElementById("c-` + name + `"); if (!e) return false;
		e.value = ` + jsString(value) + `; e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`
	if !eval[bool](t, ctx, js) {
		t.Fatalf("no control c-%s", name)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// visible reports whether the element with the id takes room on the page.
func visible(t *testing.T, ctx context.Context, id string) bool {
	return eval[bool](t, ctx, `(() => { const e = document.getElementById("`+id+`");
		if (!e) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
		getComputedStyle(e).display !== "none" && getComputedStyle(e).visibility !== "hidden"; })()`)
}

// TestPlaygroundControls changes two controls through the DOM: the run,
// the metrics and the address follow.
func TestPlaygroundControls(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html")
	waitFor(t, ctx, "the form", `!!document.getElementById("c-algo")`)
	for _, name := range []string{"strategy", "gpus", "bw", "op", "algo", "gpu", "link", "size", "chunks", "seed"} {
		if !eval[bool](t, ctx, `!!document.querySelector('label[for="c-`+name+`"]')`) {
			t.Errorf("control %s has no <label for>", name)
		}
	}
	before := eval[string](t, ctx, `document.querySelector('[data-metric="iteration"]').textContent`)
	screenshot(t, ctx, "paraplay-playground.png")

	setControl(t, ctx, "strategy", "collective")
	setControl(t, ctx, "gpus", "16")
	waitFor(t, ctx, "the address to follow", `location.search.includes("gpus=16") && location.search.includes("strategy=collective")`)
	after := eval[string](t, ctx, `document.querySelector('[data-metric="iteration"]').textContent`)
	if after == before {
		t.Errorf("iteration time stayed %s after changing strategy and gpus", after)
	}
	t.Logf("iteration: %s → %s", before, after)
	if n := eval[int](t, ctx, `document.querySelectorAll("#busy .busy").length`); n != 16 {
		t.Errorf("busy bars: %d, want 16", n)
	}
	// The algorithm list follows the operation.
	setControl(t, ctx, "op", "broadcast")
	waitFor(t, ctx, "broadcast's algorithms", `[...document.getElementById("c-algo").options].map(o => o.value).join() === "auto,binomial,chain"`)
	if v := eval[string](t, ctx, `document.getElementById("c-algo").value`); v != "auto" {
		t.Errorf("after changing the operation the algorithm is %q, want auto", v)
	}
	setControl(t, ctx, "algo", "chain")
	waitFor(t, ctx, "the broadcast run", `window.paraplay.state !== "error"`)

	// A preset button runs its lesson.
	if err := chromedp.Do(ctx, chromedp.Click(`#presets button:nth-child(2)`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the tree preset", `location.search.includes("algo=tree") && document.getElementById("c-algo").value === "tree"`)
	time.Sleep(time.Second)
	screenshot(t, ctx, "paraplay-playground-tree.png")

	// A training lesson: the form grows the pipeline's fields from the table.
	if !eval[bool](t, ctx, `(() => { const b = [...document.querySelectorAll("#presets button")].find(b => b.textContent.startsWith("1F1B"));
		if (!b) return false; b.click(); return true; })()`) {
		t.Fatal("no 1F1B preset")
	}
	waitFor(t, ctx, "the pipeline run", `location.search.includes("pp=4") && window.paraplay.state !== "error"`)
	if v := eval[string](t, ctx, `document.getElementById("c-schedule").tagName + ":" + document.getElementById("c-schedule").value`); v != "SELECT:1f1b" {
		t.Errorf("schedule control: %s, want a select holding 1f1b", v)
	}
	time.Sleep(time.Second)
	screenshot(t, ctx, "paraplay-playground-1f1b.png")

	// Download trace: the Chrome trace made in Go.
	events := eval[int](t, ctx, `JSON.parse(window.paraplay.trace()).traceEvents.length`)
	if events == 0 {
		t.Error("the trace has no events")
	}
	embed := eval[string](t, ctx, `(() => { document.getElementById("copy-embed").click(); return "ok"; })()`)
	_ = embed
	noConsoleErrors(t, con)
}

// everyParam sets every scenario parameter of today away from its default.
const everyParam = "strategy=collective&name=All+set&gpus=8&bw=50GB%2Fs&lat=7us&fwd=3ms&bwd=5ms&jitter=0.2" +
	"&gpu=h100-sxm&nodes=2&gpus_per_node=4&link=nvlink4&inter=ib-hdr&network=fat-tree" +
	"&op=all_reduce&algo=tree&size=32MiB&chunks=4&seed=9&speed=2&autoplay=0&loop=0"

// TestPlaygroundRoundTrip loads a URL with every parameter set, reads the
// app's state and the controls, reloads the canonical URL and compares.
func TestPlaygroundRoundTrip(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?"+everyParam)
	waitFor(t, ctx, "the form", `!!document.getElementById("c-algo")`)
	type snap struct {
		Query    string            `json:"query"`
		Controls map[string]string `json:"controls"`
		Speed    float64           `json:"speed"`
		State    string            `json:"state"`
		End      float64           `json:"end"`
		Loop     bool              `json:"loop"`
		LoopBox  bool              `json:"loopBox"`
	}
	read := func() snap {
		return eval[snap](t, ctx, `(() => { const c = {};
			for (const e of document.getElementById("controls").elements) if (e.name) c[e.name] = e.value;
			return {query: location.search.slice(1), controls: c, speed: paraplay.speed, state: paraplay.state, end: paraplay.end,
				loop: paraplay.loop, loopBox: document.getElementById("loop").checked}; })()`)
	}
	a := read()
	want, _ := url.ParseQuery(everyParam)
	for k := range want {
		if k == "speed" || k == "autoplay" || k == "loop" {
			continue
		}
		got := a.Controls[k]
		if k == "bw" || k == "lat" { // canonical spellings of the same value
			got = strings.ReplaceAll(got, "µ", "u")
		}
		if got != want.Get(k) {
			t.Errorf("control %s = %q, want %q", k, a.Controls[k], want.Get(k))
		}
	}
	if a.State != "paused" || a.Speed != 2 || a.End <= 0 || a.Loop || a.LoopBox {
		t.Errorf("state %q speed %v end %v loop %v (box %v); want paused at ×2 with a run, not looping", a.State, a.Speed, a.End, a.Loop, a.LoopBox)
	}
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the reloaded form", `window.paraplay && paraplay.frames > 0 && !!document.getElementById("c-algo")`)
	b := read()
	if a.Query != b.Query || a.End != b.End || a.Speed != b.Speed || a.State != b.State || a.Loop != b.Loop {
		t.Errorf("after reload:\n%+v\nbefore:\n%+v", b, a)
	}
	for k, v := range a.Controls {
		if b.Controls[k] != v {
			t.Errorf("after reload control %s = %q, before %q", k, b.Controls[k], v)
		}
	}
	t.Logf("canonical query: %s", a.Query)
	screenshot(t, ctx, "paraplay-roundtrip.png")
	noConsoleErrors(t, con)
}

// TestPlaygroundViews checks embed=1 and hide=controls.
func TestPlaygroundViews(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?embed=1&gpus=8&autoplay=0&t=7ms")
	if visible(t, ctx, "side") || visible(t, ctx, "controls") {
		t.Error("embed=1 shows the side panel")
	}
	if !visible(t, ctx, "toggle") || !visible(t, ctx, "open") {
		t.Error("embed=1 lacks the play button or the playground link")
	}
	href := eval[string](t, ctx, `document.getElementById("open").href`)
	if strings.Contains(href, "embed") || !strings.Contains(href, "gpus=8") {
		t.Errorf("open in playground: %s; want the same run without embed", href)
	}
	w := eval[float64](t, ctx, `document.querySelector("canvas").getBoundingClientRect().width`)
	if w < 1200 {
		t.Errorf("embed canvas is %.0f px wide, want the whole window", w)
	}
	screenshot(t, ctx, "paraplay-embed.png")

	open(t, ctx, base, "play.html?hide=controls")
	waitFor(t, ctx, "the metrics", `document.querySelectorAll("#totals dd").length > 0`)
	if visible(t, ctx, "controls") || visible(t, ctx, "presets") {
		t.Error("hide=controls shows the controls")
	}
	if !visible(t, ctx, "metrics") {
		t.Error("hide=controls hides the metrics")
	}
	screenshot(t, ctx, "paraplay-hide-controls.png")
	open(t, ctx, base, "play.html?hide=controls,metrics")
	if visible(t, ctx, "metrics") {
		t.Error("hide=controls,metrics shows the metrics")
	}
	noConsoleErrors(t, con)
}

// TestPlaygroundReset opens a bad parameter: the message names it over the
// canvas, the control is marked, and Reset to defaults recovers.
func TestPlaygroundReset(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?gpus=999&name=%3Cb%3Ex%3C/b%3E")
	waitFor(t, ctx, "the error state", `window.paraplay.state === "error"`)
	if st := state(t, ctx); !strings.Contains(st.Error, "gpus") {
		t.Errorf("error %q does not name gpus", st.Error)
	}
	waitFor(t, ctx, "the reset button", `!document.getElementById("errbar").hidden`)
	if inv := eval[string](t, ctx, `document.getElementById("c-gpus").getAttribute("aria-invalid")`); inv != "true" {
		t.Errorf("gpus control aria-invalid = %q", inv)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("b").length`); n != 0 {
		t.Errorf("URL text became markup: %d <b>", n)
	}
	screenshot(t, ctx, "paraplay-playground-error.png")
	if err := chromedp.Do(ctx, chromedp.Click(`#reset`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the default run", `window.paraplay.state !== "error" && document.getElementById("errbar").hidden`)
	if q := eval[string](t, ctx, `location.search`); q != "" {
		t.Errorf("after reset the address is %q, want no parameters", q)
	}
	if v := eval[string](t, ctx, `document.getElementById("c-gpus").value`); v != "4" {
		t.Errorf("after reset gpus = %q, want 4", v)
	}
	screenshot(t, ctx, "paraplay-playground-reset.png")
	noConsoleErrors(t, con)
}

// TestPlaygroundPlayback drives the bar: scrub, speed, step keys, End and
// Home, and the inspector tooltip under the mouse.
func TestPlaygroundPlayback(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?autoplay=0")
	waitFor(t, ctx, "the bar", `!!window.paraplay.seekFraction`)
	eval[bool](t, ctx, `(() => { const s = document.getElementById("scrub"); s.value = "500"; s.dispatchEvent(new Event("input")); return true; })()`)
	waitFor(t, ctx, "the scrub", `Math.abs(paraplay.simTime / paraplay.end - 0.5) < 0.01`)
	eval[bool](t, ctx, `(() => { const s = document.getElementById("speed"); s.value = "3"; s.dispatchEvent(new Event("input")); return true; })()`)
	waitFor(t, ctx, "×1000", `paraplay.speed === 1000 && location.search.includes("speed=1000")`)
	press(t, ctx, "-")
	waitFor(t, ctx, "− to halve", `paraplay.speed === 500`)
	a := state(t, ctx).SimTime
	press(t, ctx, kb.PageDown)
	waitFor(t, ctx, "PageDown to step", `paraplay.simTime > `+ftoa(a))
	press(t, ctx, kb.End)
	waitFor(t, ctx, "End", `paraplay.simTime === paraplay.end`)

	// Hover: sweep down the middle of the canvas until the inspector names
	// a GPU (GPU 0 sits at the top of the ring).
	cw := eval[float64](t, ctx, `document.querySelector("canvas").getBoundingClientRect().width`)
	found := ""
	for y := 30.0; y < 400 && found == ""; y += 8 {
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, cw/2, y)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(60 * time.Millisecond)
		found = eval[string](t, ctx, `paraplay.hover`)
	}
	if !strings.HasPrefix(found, "gpu/") {
		t.Errorf("hovering the ring found %q, want a GPU", found)
	}
	waitFor(t, ctx, "the tooltip", `!document.getElementById("tip").hidden && document.getElementById("tip").textContent.includes("GPU")`)
	t.Logf("tooltip: %q", eval[string](t, ctx, `document.getElementById("tip").textContent`))
	screenshot(t, ctx, "paraplay-inspector.png")

	// Drag the playhead in the strip back to the start.
	st := state(t, ctx)
	_ = st
	stripY := eval[float64](t, ctx, `innerHeight - 44 - 80`)
	if err := chromedp.Do(ctx,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, cw*0.9, stripY, chromedp.ButtonLeft),
		chromedp.Sleep(100*time.Millisecond),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, cw*0.3, stripY, chromedp.ButtonLeft),
		chromedp.Sleep(100*time.Millisecond),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, cw*0.3, stripY, chromedp.ButtonLeft),
	); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the drag to scrub", `paraplay.simTime < paraplay.end * 0.4`)
	// Back to ×1 first: at ×500 the whole run plays within a frame or two
	// of Home, and a fast machine shows "playing" too briefly to observe.
	eval[any](t, ctx, `paraplay.setSpeed(1)`)
	waitFor(t, ctx, "×1", `paraplay.speed === 1`)
	press(t, ctx, kb.Home)
	waitFor(t, ctx, "Home to restart", `paraplay.state === "playing"`)
	noConsoleErrors(t, con)
}

// TestPlaygroundReducedMotionDark opens the playground for a reader who
// prefers reduced motion and a dark theme: it starts paused, dark, and the
// live region describes the scenario.
func TestPlaygroundReducedMotionDark(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{
				{Name: "prefers-reduced-motion", Value: "reduce"},
				{Name: "prefers-color-scheme", Value: "dark"},
			}})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "play.html?strategy=collective&gpu=h100-sxm&nodes=2&gpus_per_node=8&algo=hierarchical")
	waitFor(t, ctx, "the live region", `document.getElementById("live").textContent.includes("16 GPUs")`)
	if st := state(t, ctx); st.State != "paused" {
		t.Errorf("with reduced motion the app is %q, want paused", st.State)
	}
	bg := eval[string](t, ctx, `getComputedStyle(document.documentElement).backgroundColor`)
	if bg != "rgb(21, 23, 27)" {
		t.Errorf("dark theme background %s, want rgb(21, 23, 27)", bg)
	}
	t.Logf("live region: %q", eval[string](t, ctx, `document.getElementById("live").textContent`))
	press(t, ctx, kb.ArrowRight)
	press(t, ctx, kb.ArrowRight)
	time.Sleep(300 * time.Millisecond)
	screenshot(t, ctx, "paraplay-dark.png")
	noConsoleErrors(t, con)
}

// TestPlaygroundCompare opens two runs side by side: both draw, the shorter
// follows the longer's instant, and the table diffs their metrics.
func TestPlaygroundCompare(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	q := url.Values{}
	q.Set("a", "strategy=collective&gpus=16&algo=ring&size=64KiB")
	q.Set("b", "strategy=collective&gpus=16&algo=tree&size=64KiB")
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/play.html?"+q.Encode())); err != nil {
		t.Fatal(err)
	}
	both := `[...document.querySelectorAll("#cmp-frames iframe")].map(f => f.contentWindow.paraplay)`
	waitFor(t, ctx, "both runs' first frames", `(() => { const p = `+both+`; return p.length === 2 && p.every(x => x && x.frames > 0); })()`)
	waitFor(t, ctx, "the metrics diff", `document.querySelectorAll("#cmp-table tbody tr").length >= 4`)
	rows := eval[[]string](t, ctx, `[...document.querySelectorAll("#cmp-table tbody tr")].map(r => r.textContent)`)
	t.Logf("diff: %q", rows)
	if !strings.HasPrefix(rows[0], "iteration") || !strings.Contains(rows[0], "×") {
		t.Errorf("first row %q, want the iteration times and their ratio", rows[0])
	}
	if n := eval[int](t, ctx, `window.paraplay ? 1 : 0`); n != 0 {
		t.Error("the compare page itself started a wasm runtime")
	}
	time.Sleep(1500 * time.Millisecond)
	// The follower shows the leader's instant (clamped to its own end).
	gap := eval[float64](t, ctx, `(() => { const [a, b] = `+both+`; const [l, f] = a.end >= b.end ? [a, b] : [b, a];
		return Math.abs(Math.min(l.simTime, f.end) - f.simTime) / l.end; })()`)
	if gap > 0.1 {
		t.Errorf("the two runs are %.0f%% of the leader's run apart, want one clock", 100*gap)
	}
	screenshot(t, ctx, "paraplay-compare.png")
	noConsoleErrors(t, con)
}
