//go:build browser

package browsertest

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/draw"
	"image/gif"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/timeline"
)

// exportQuery is a small run that every export test shows.
const exportQuery = "gpus=4&algo=ring&size=64MiB&autoplay=0"

// simulateQuery runs the scenario of a playground query as the command
// line's --url does.
func simulateQuery(t *testing.T, query string) *timeline.Timeline {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// allowDownloads saves the page's downloads into a fresh directory.
func allowDownloads(t *testing.T, ctx context.Context) string {
	t.Helper()
	dir := t.TempDir()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	}))
	if err != nil {
		t.Fatalf("allowing downloads: %v", err)
	}
	return dir
}

// waitForFile waits until a finished file with the extension ext is in dir.
func waitForFile(t *testing.T, dir, ext string, timeout time.Duration) []byte {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		matches, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
		for _, m := range matches {
			if data, err := os.ReadFile(m); err == nil && len(data) > 0 {
				t.Logf("downloaded %s (%d bytes)", filepath.Base(m), len(data))
				return data
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	t.Fatalf("no %s file downloaded within %v (directory holds %v)", ext, timeout, entries)
	return nil
}

// TestExportDownloads clicks Download PNG, SVG and GIF in the playground
// and checks that each file arrives and decodes at the right size, then
// compares a GIF made in the page with one made by the command line's code.
func TestExportDownloads(t *testing.T) {
	ctx, con, dir := openExport(t)
	eval[bool](t, ctx, `window.paraplay.seekFraction(0.7), true`)
	waitFor(t, ctx, "the seek", `window.paraplay.simTime > 0`)

	if err := chromedp.Do(ctx, chromedp.Click("#export-png")); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(waitForFile(t, dir, ".png", 30*time.Second)))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	// The PNG is the canvas at its own resolution: CSS size × device scale.
	cw := eval[float64](t, ctx, `(() => { const c = document.querySelector("canvas"); return Math.round(c.clientWidth * devicePixelRatio); })()`)
	ch := eval[float64](t, ctx, `(() => { const c = document.querySelector("canvas"); return Math.round(c.clientHeight * devicePixelRatio); })()`)
	if b := img.Bounds(); absDiff(float64(b.Dx()), cw) > 2 || absDiff(float64(b.Dy()), ch) > 2 {
		t.Errorf("PNG is %v; want the canvas's %v×%v pixels", b, cw, ch)
	}
	assertDrawn(t, img, 30)

	if err := chromedp.Do(ctx, chromedp.Click("#export-svg")); err != nil {
		t.Fatal(err)
	}
	if svg := waitForFile(t, dir, ".svg", 30*time.Second); !bytes.HasPrefix(svg, []byte("<svg")) {
		t.Errorf("SVG starts %.60q", svg)
	}

	start := time.Now()
	err = chromedp.Do(ctx, chromedp.SetValue("#export-size", "640x360"), chromedp.Click("#export-gif"))
	if err != nil {
		t.Fatal(err)
	}
	// The page must keep drawing while the GIF is encoded.
	waitFor(t, ctx, "the GIF's progress", `document.getElementById("export-status").textContent.includes("frames")`)
	f0 := state(t, ctx).Frames
	data := waitForFile(t, dir, ".gif", 3*time.Minute)
	t.Logf("browser GIF: %d bytes in %v; the canvas drew %d frames meanwhile", len(data), time.Since(start).Round(time.Millisecond), state(t, ctx).Frames-f0)
	if state(t, ctx).Frames-f0 < 5 {
		t.Errorf("the canvas drew %d frames while the GIF was encoded; the page froze", state(t, ctx).Frames-f0)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the GIF does not decode: %v", err)
	}
	tl := simulateQuery(t, exportQuery)
	want := scene.Animation{FPS: 15, Speed: 1}.FrameCount(tl.End)
	if g.Config.Width != 640 || g.Config.Height != 360 || len(g.Image) != want {
		t.Errorf("GIF: %d×%d, %d frames; want 640×360, %d frames", g.Config.Width, g.Config.Height, len(g.Image), want)
	}
	checkGIFMatchesCLI(t, ctx)
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

func absDiff(a, b float64) float64 { return max(a-b, b-a) }

// openExport opens the playground on exportQuery with downloads going to a
// fresh directory, and waits for the export section.
func openExport(t *testing.T) (context.Context, *console, string) {
	t.Helper()
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?"+exportQuery)
	dir := allowDownloads(t, ctx)
	waitFor(t, ctx, "the export section", `!!document.getElementById("export-png") && !!document.getElementById("export-webm")`)
	return ctx, con, dir
}

// TestExportWebM clicks Record WebM in the playground and checks that one
// pass of the run arrives as a WebM file: the EBML header with the webm
// document type, a VP8 or VP9 video track, and clusters of frames; and
// that the run was restarted, played to its end and looped again after.
func TestExportWebM(t *testing.T) {
	ctx, con, dir := openExport(t)
	if !eval[bool](t, ctx, `typeof MediaRecorder === "function" && !!document.querySelector("canvas").captureStream`) {
		t.Skip("this Chromium has no MediaRecorder or canvas.captureStream")
	}
	eval[bool](t, ctx, `window.paraplay.seekFraction(0.5), true`)
	if err := chromedp.Do(ctx, chromedp.Click("#export-webm")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the recording to start from the beginning", `window.paraplay.state === "playing" && window.paraplay.simTime < 0.5 * window.paraplay.end`)
	data := waitForFile(t, dir, ".webm", 2*time.Minute)
	status := eval[string](t, ctx, `document.getElementById("export-status").textContent`)
	t.Logf("WebM: %d bytes; status %q", len(data), status)
	if !bytes.HasPrefix(data, []byte{0x1a, 0x45, 0xdf, 0xa3}) {
		t.Fatalf("the file does not start with an EBML header: % x", data[:min(8, len(data))])
	}
	head := data[:min(len(data), 256)]
	if !bytes.Contains(head, []byte("webm")) {
		t.Errorf("the EBML header does not name the webm document type")
	}
	if !bytes.Contains(data, []byte("V_VP9")) && !bytes.Contains(data, []byte("V_VP8")) {
		t.Errorf("no VP8 or VP9 video track")
	}
	clusters := bytes.Count(data, []byte{0x1f, 0x43, 0xb6, 0x75})
	if clusters < 1 || len(data) < 10<<10 {
		t.Errorf("%d clusters in %d bytes; want frames", clusters, len(data))
	}
	// The browser decodes its own recording: a frame from the middle must
	// show the demo, not a blank canvas. It does so in a blank tab of its
	// own: the site's Content-Security-Policy lets no page play a blob:.
	blank, closeBlank := chromedp.NewContext(ctx)
	defer closeBlank()
	if err := chromedp.Do(blank, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	frame, err := chromedp.Run(blank, chromedp.Evaluate[string](`(async () => {
		const bin = atob("`+base64.StdEncoding.EncodeToString(data)+`");
		const bytes = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
		const v = document.createElement("video");
		v.muted = true;
		v.src = URL.createObjectURL(new Blob([bytes], { type: "video/webm" }));
		await new Promise((ok, fail) => { v.onloadeddata = ok; v.onerror = () => fail(new Error("the video does not decode")); });
		await new Promise((ok) => { v.onseeked = ok; v.currentTime = 1; });
		const c = document.createElement("canvas");
		c.width = v.videoWidth; c.height = v.videoHeight;
		c.getContext("2d").drawImage(v, 0, 0);
		return c.toDataURL("image/png");
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("decoding the WebM in the page: %v", err)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(frame, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the decoded frame: %v", err)
	}
	path := filepath.Join(os.TempDir(), "paraplay-webm-frame.png")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("a frame 1 s into the WebM, %v, saved to %s", img.Bounds().Size(), path)
	assertDrawn(t, img, 30) // video compression adds shades; a blank frame has one
	if !strings.Contains(status, "WebM saved") {
		t.Errorf("status %q; want it to say the WebM was saved", status)
	}
	if s := state(t, ctx); s.SimTime < s.End*0.99 && s.State != "playing" {
		t.Errorf("after recording: %+v; want the run played to its end or looping again", s)
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}

// gifTolerance is how far a browser frame may stray from the command
// line's: the same Go code runs on both, so only floating-point
// differences between amd64 and wasm could move an anti-aliased edge.
const (
	gifChannelTol = 40
	gifMaxBad     = 0.001
)

// checkGIFMatchesCLI encodes the page's run in the page and here (the
// code path of paraplay export --url) and compares their frames.
func checkGIFMatchesCLI(t *testing.T, ctx context.Context) {
	const opts = `{width: 320, height: 200, fps: 10, speed: 1}`
	b64, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const app = window.paraplay;
		const err = app.exportGIF(`+opts+`);
		if (err) return "error: " + err;
		for (;;) {
			const r = app.exportGIFStep(25);
			if (r.error) return "error: " + r.error;
			if (r.finished) break;
			await new Promise((ok) => requestAnimationFrame(ok));
		}
		const bytes = app.exportGIFResult();
		let s = "";
		for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
		return btoa(s);
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(b64, "error: ") {
		t.Fatal(b64)
	}
	browserGIF, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	var cli bytes.Buffer
	a := scene.Animation{Options: scene.Options{Width: 320, Height: 200}, FPS: 10, Speed: 1}
	if err := scene.WriteGIF(&cli, scene.NewFrames(simulateQuery(t, exportQuery)), a, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("browser GIF %d bytes, CLI GIF %d bytes, byte-identical: %v", len(browserGIF), cli.Len(), bytes.Equal(browserGIF, cli.Bytes()))
	bg, err := gif.DecodeAll(bytes.NewReader(browserGIF))
	if err != nil {
		t.Fatal(err)
	}
	cg, err := gif.DecodeAll(&cli)
	if err != nil {
		t.Fatal(err)
	}
	if len(bg.Image) != len(cg.Image) {
		t.Fatalf("browser GIF has %d frames, CLI %d", len(bg.Image), len(cg.Image))
	}
	bc, cc := image.NewRGBA(image.Rect(0, 0, 320, 200)), image.NewRGBA(image.Rect(0, 0, 320, 200))
	worstFrame, worstBad := 0, 0
	for k := range bg.Image {
		draw.Draw(bc, bg.Image[k].Bounds(), bg.Image[k], bg.Image[k].Bounds().Min, draw.Over)
		draw.Draw(cc, cg.Image[k].Bounds(), cg.Image[k], cg.Image[k].Bounds().Min, draw.Over)
		bad := 0
		for i := 0; i < len(bc.Pix); i += 4 {
			d := 0
			for c := range 3 {
				d = max(d, int(bc.Pix[i+c])-int(cc.Pix[i+c]), int(cc.Pix[i+c])-int(bc.Pix[i+c]))
			}
			if d > gifChannelTol {
				bad++
			}
		}
		if bad > worstBad {
			worstFrame, worstBad = k, bad
		}
	}
	t.Logf("%d frames compared; worst frame %d has %d pixels off by more than %d", len(bg.Image), worstFrame, worstBad, gifChannelTol)
	if float64(worstBad) > gifMaxBad*320*200 {
		t.Errorf("frame %d: %d pixels differ by more than %d between the browser and the CLI", worstFrame, worstBad, gifChannelTol)
	}
}

// TestPresenterMode opens a demo with present=1: dark canvas, a caption,
// and PageDown stepping to the next op or collective step.
func TestPresenterMode(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?present=1&"+exportQuery)
	events := scene.PresenterEvents(simulateQuery(t, exportQuery))
	if len(events) < 4 {
		t.Fatalf("only %d presenter events", len(events))
	}
	for i := 1; i <= 3; i++ {
		press(t, ctx, kb.PageDown)
		waitFor(t, ctx, "PageDown to reach event "+ftoa(float64(i)), `window.paraplay.simTime === `+ftoa(float64(events[i])))
	}
	press(t, ctx, kb.PageUp)
	waitFor(t, ctx, "PageUp to go back", `window.paraplay.simTime === `+ftoa(float64(events[2])))
	img := screenshot(t, ctx, "paraplay-present.png")
	assertDrawn(t, img, 30)
	// The dark theme: the canvas's top-left corner is the dark background.
	r, g, b, _ := img.At(5, 5).RGBA()
	if r>>8 > 0x40 || g>>8 > 0x40 || b>>8 > 0x40 {
		t.Errorf("presenter canvas corner is #%02x%02x%02x; want the dark background", r>>8, g>>8, b>>8)
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
