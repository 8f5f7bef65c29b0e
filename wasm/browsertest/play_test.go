//go:build browser

package browsertest

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPlay loads the default demo: it must draw a real picture, animate,
// and log no errors.
func TestPlay(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	ttff := open(t, ctx, base, "play.html")
	t.Logf("time to first frame (navigation start → frames > 0): %v", ttff.Round(time.Millisecond))

	st := state(t, ctx)
	if st.State != "playing" || st.Error != "" {
		t.Fatalf("after the first frame: %v; want state playing and no error", st)
	}
	start := st.SimTime
	waitFor(t, ctx, "simulated time to advance",
		`window.paraplay.simTime > `+ftoa(start)+` || window.paraplay.simTime < `+ftoa(start))
	// Let the run get under way so the picture shows some traffic, and
	// measure the frame rate meanwhile.
	before := state(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Sleep(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	after := state(t, ctx)
	t.Logf("frame rate in headless chromium (software WebGL): %.1f frames/s; simulated %.0f µs in 2 s of real time",
		float64(after.Frames-before.Frames)/2, (after.SimTime-before.SimTime)/1e3)
	assertDrawn(t, screenshot(t, ctx, "paraplay-play.png"), 50)
	t.Logf("state at screenshot: %v", state(t, ctx))
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// TestHighDPI checks that on a screen with two device pixels per CSS pixel
// the app draws at the device's resolution (so text and lines stay crisp)
// rather than scaling up a drawing of the CSS size.
func TestHighDPI(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t, chromedp.Flag("force-device-scale-factor", "2"))
	open(t, ctx, base, "play.html?gpus=8&autoplay=0&t=7ms")
	type dims struct {
		DPR          float64 `json:"dpr"`
		CSSW, CSSH   float64
		DrawW, DrawH float64
	}
	d := eval[dims](t, ctx, `(() => { const c = document.querySelector("canvas");
		return {dpr: devicePixelRatio, CSSW: c.clientWidth, CSSH: c.clientHeight,
			DrawW: paraplay.canvasWidth, DrawH: paraplay.canvasHeight}; })()`)
	t.Logf("devicePixelRatio %v, canvas %v×%v CSS px, drawn at %v×%v", d.DPR, d.CSSW, d.CSSH, d.DrawW, d.DrawH)
	if d.DPR != 2 || math.Abs(d.DrawH-2*d.CSSH) > 2 || math.Abs(d.DrawW-2*d.CSSW) > 2 {
		t.Errorf("at devicePixelRatio %v a %v×%v canvas is drawn at %v×%v; want twice the CSS size", d.DPR, d.CSSW, d.CSSH, d.DrawW, d.DrawH)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-hidpi.png"), 50)
	noConsoleErrors(t, con)
}

// TestKeyboard checks Space, → and Space again.
func TestKeyboard(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html")

	press(t, ctx, " ")
	waitFor(t, ctx, "Space to pause", `window.paraplay.state === "paused"`)
	a := state(t, ctx).SimTime
	if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if b := state(t, ctx).SimTime; b != a {
		t.Errorf("paused, simTime moved from %.0f to %.0f", a, b)
	}

	press(t, ctx, kb.ArrowRight)
	waitFor(t, ctx, "→ to step forward", `window.paraplay.simTime > `+ftoa(a))
	st := state(t, ctx)
	t.Logf("→ stepped from %.0f ns to %.0f ns", a, st.SimTime)
	if st.State != "paused" {
		t.Errorf("after →: state %q, want paused", st.State)
	}

	press(t, ctx, kb.ArrowLeft)
	waitFor(t, ctx, "← to step back", `window.paraplay.simTime < `+ftoa(st.SimTime))

	press(t, ctx, " ")
	waitFor(t, ctx, "Space to play", `window.paraplay.state === "playing"`)
	c := state(t, ctx).SimTime
	waitFor(t, ctx, "time to move again", `window.paraplay.simTime !== `+ftoa(c))
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// TestBadParameter checks that bad URL parameters are named on the canvas,
// every one of them, and that URL text never becomes markup.
func TestBadParameter(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  []string // parameters the error must name
		shot  string
	}{
		{"one", "gpus=999", []string{"gpus"}, "paraplay-error.png"},
		{"several", "gpus=1&bw=fast&speed=5000&bogus=%3Cb%3Ehi%3C/b%3E&name=" + strings.Repeat("x", 300),
			[]string{"gpus", "bw", "speed", "bogus", "name"}, "paraplay-errors.png"},
	}
	base := serve(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, con := browser(t)
			open(t, ctx, base, "play.html?"+tt.query)
			waitFor(t, ctx, "the error state", `window.paraplay.state === "error"`)
			st := state(t, ctx)
			for _, p := range tt.want {
				if !strings.Contains(st.Error, p) {
					t.Errorf("error %q does not name the parameter %s", st.Error, p)
				}
			}
			t.Logf("error shown: %q", st.Error)
			assertDrawn(t, screenshot(t, ctx, tt.shot), 10)
			if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("b").length`)); err != nil || n != 0 {
				t.Errorf("URL text became markup: %d <b> elements (%v)", n, err)
			}
			for _, e := range con.list() {
				t.Errorf("console: %s", e)
			}
		})
	}
}

// TestArticle loads the ring all-reduce article and its embedded demo.
func TestArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/ring-allreduce.html")); err != nil {
		t.Fatal(err)
	}
	// The iframe is lazy: bring it into view so the browser loads it.
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(`iframe`)); err != nil {
		t.Fatalf("finding the demo iframe: %v", err)
	}
	waitFor(t, ctx, "the iframe's first frame", `(() => {
		const f = document.querySelector("iframe");
		const p = f && f.contentWindow && f.contentWindow.paraplay;
		return !!(p && p.frames > 0);
	})()`)
	src, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("iframe").src`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("iframe src: %s", src)
	if err := chromedp.Do(ctx, chromedp.Sleep(time.Second)); err != nil {
		t.Fatal(err)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-article.png"), 50)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// TestNoWebGL2 checks that a browser without WebGL2 is told so in the page.
func TestNoWebGL2(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t, chromedp.Flag("disable-3d-apis", true))
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/play.html")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the WebGL2 message", `!document.getElementById("problem").hidden`)
	msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("problem").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "needs WebGL2") {
		t.Errorf("message %q does not say the demo needs WebGL2", msg)
	}
	screenshot(t, ctx, "paraplay-nowebgl.png")
	// The app logs why it stopped; nothing may throw once it has gone.
	for _, e := range con.list() {
		if strings.HasPrefix(e, "exception") {
			t.Errorf("console: %s", e)
		}
	}
}

// TestViewParams checks the viewer's own parameters: autoplay=0 starts
// paused at t, and speed is published. The screenshot shows the all-reduce
// under way.
func TestViewParams(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?autoplay=0&t=8ms&speed=4")
	st := state(t, ctx)
	if st.State != "paused" || st.SimTime != 8e6 || st.Speed != 4 {
		t.Errorf("got %v; want state paused, simTime 8000000, speed 4", st)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-8ms.png"), 50)
	press(t, ctx, "-")
	waitFor(t, ctx, "− to halve the speed", `window.paraplay.speed === 2`)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// TestClusterCollective opens a collective scenario on a real cluster (two
// H100 nodes on a rail-optimized network) from its URL and checks the
// cluster view animates it; the screenshot shows packets on the links.
func TestClusterCollective(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?strategy=collective&gpu=h100-sxm&nodes=2&gpus_per_node=4&op=all_reduce&algo=ring&size=64MiB&autoplay=0&t=400us")
	st := state(t, ctx)
	if st.State != "paused" || st.Error != "" || st.End <= 0 {
		t.Fatalf("got %v; want a paused run with no error", st)
	}
	assertDrawn(t, screenshot(t, ctx, "paraplay-cluster.png"), 50)
	press(t, ctx, kb.ArrowRight)
	waitFor(t, ctx, "→ to step to the next event", `window.paraplay.simTime > 400000`)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
