//go:build browser

package browsertest

import (
	"context"
	"image"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/units"
)

// channelHues are four of the channels' colours (sim/scene's
// channelPalette: blue, teal, purple and pink) that nothing else in a lone
// collective's cluster view is drawn in: its GPUs are green while they
// send, its links grey to dark red by load.
var channelHues = []struct {
	name    string
	r, g, b int
}{{"blue", 0x4e, 0x79, 0xa7}, {"teal", 0x76, 0xb7, 0xb2}, {"purple", 0xb0, 0x7a, 0xa1}, {"pink", 0xff, 0x9d, 0xa7}}

// TestChannelColours opens the article's eight-channel all-reduce over
// two DGX A100 servers (16 GPUs) and the same on eight servers (64 GPUs),
// pauses a third of the way through and checks what the cluster view (the
// canvas above its legend) shows: packets in at least two of the channels'
// own colours, each of two packets of different channels painted in the
// fill the scene gives it (found in the scene's own draw list for the same
// instant), and a hover over one of them that names its channel. It logs
// the frame rate of the 64-GPU run playing at ×1. Look at the screenshots:
// paraplay-channels-16.png and paraplay-channels-64.png.
func TestChannelColours(t *testing.T) {
	base := serve(t)
	for _, nodes := range []int{2, 8} {
		name := strconv.Itoa(8 * nodes)
		ctx, con := browser(t)
		q := "strategy=collective&gpu=a100-sxm-80gb&nodes=" + strconv.Itoa(nodes) + "&gpus_per_node=8&inter=ib-hdr&algo=ring&size=256MiB"
		open(t, ctx, base, "play.html?"+q)
		if st := state(t, ctx); st.Error != "" {
			t.Fatalf("%s GPUs: the run failed to load: %v", name, st)
		}
		if nodes == 8 { // playing at ×1: the frame rate the meter settles on
			time.Sleep(4 * time.Second)
			t.Logf("64 GPUs on 8 channels, playing: window.paraplay.fps = %.1f (Go per frame: scene %.1f ms, batch %.1f ms)",
				eval[float64](t, ctx, `window.paraplay.fps`), eval[float64](t, ctx, `window.paraplay.buildMs`), eval[float64](t, ctx, `window.paraplay.drawMs`))
		}
		end := state(t, ctx).End
		at := units.Time(0.34 * end) // inside a step, the packets on their way
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`paraplay.pause(); paraplay.seek(`+ftoa(float64(at))+`)`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the seek", `Math.abs(window.paraplay.simTime - `+ftoa(float64(at))+`) < 2 && window.paraplay.state === "paused"`)
		if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		img := screenshot(t, ctx, "paraplay-channels-"+name+".png")
		assertDrawn(t, img, 40)
		c := canvasOf(t, ctx)
		band := image.Rect(int(c.left), int(c.top), int(c.left+c.k*c.w), int(c.top+c.k*0.55*c.h)) // above the legend
		var seen []string
		for _, h := range channelHues {
			if n := near(subImage(img, band), h.r, h.g, h.b, 6); n >= 30 {
				seen = append(seen, h.name)
			}
		}
		t.Logf("%s GPUs: channel colours in the cluster view: %v", name, seen)
		if len(seen) < 2 {
			t.Errorf("%s GPUs: the cluster view shows packets in %d of the channels' colours %v; want at least 2", name, len(seen), seen)
		}
		checkPackets(t, ctx, img, c, q, at, name)
		if errs := con.list(); len(errs) > 0 {
			t.Errorf("%s GPUs: console errors: %v", name, errs)
		}
		chromedp.Cancel(ctx)
	}
}

// checkPackets finds, in the scene's draw list of run q at instant at on
// the page's canvas, two packets of different channels that leave their
// node, checks that the screenshot shows each in its fill, and hovers over
// one: the app must report it and name its channel.
func checkPackets(t *testing.T, ctx context.Context, img image.Image, c canvas, q string, at units.Time, name string) {
	t.Helper()
	vals, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(vals)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	dl := scene.Build(tl, at, scene.Options{Width: c.w, Height: c.h})
	checked := map[int8]bool{}
	for _, it := range dl.Items {
		k, err := strconv.Atoi(strings.TrimPrefix(it.ID, "xfer/"))
		if !strings.HasPrefix(it.ID, "xfer/") || err != nil || it.W < 8 {
			continue
		}
		x := tl.Transfers.At(k)
		if x.Channel < 0 || checked[x.Channel] || tl.GPUs[x.Src].Node == tl.GPUs[x.Dst].Node || len(checked) == 2 {
			continue
		}
		checked[x.Channel] = true
		px, py := c.left+c.k*(it.X+it.W/4), c.top+c.k*(it.Y+it.H/2) // left of its number
		r, g, b, _ := img.At(int(px), int(py)).RGBA()
		if abs(int(r>>8)-int(it.Fill.R)) > 8 || abs(int(g>>8)-int(it.Fill.G)) > 8 || abs(int(b>>8)-int(it.Fill.B)) > 8 {
			t.Errorf("%s GPUs: packet %d of channel %d is painted #%02x%02x%02x at (%.0f, %.0f); want its fill #%02x%02x%02x",
				name, k, x.Channel, r>>8, g>>8, b>>8, px, py, it.Fill.R, it.Fill.G, it.Fill.B)
		}
		if len(checked) > 1 {
			continue
		}
		if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, px, py)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the packet's tooltip", `window.paraplay.hover === "`+it.ID+`"`)
		want := "channel " + strconv.Itoa(int(x.Channel)) + ", leaves its node by rail "
		if tip := eval[string](t, ctx, `window.paraplay.hoverText`); !strings.Contains(tip, want) {
			t.Errorf("%s GPUs: the tooltip of packet %d reads %q; want %q in it", name, k, tip, want)
		}
	}
	if len(checked) < 2 {
		t.Errorf("%s GPUs: the scene draws packets of %d channels between nodes at %v; want 2 to check", name, len(checked), at)
	}
}

// canvas is where the page puts the app's canvas: its left and top in CSS
// pixels, its size in device pixels (the scene's), and CSS pixels per
// device pixel.
type canvas struct{ left, top, w, h, k float64 }

func canvasOf(t *testing.T, ctx context.Context) canvas {
	t.Helper()
	r := eval[[]float64](t, ctx, `(() => { const c = document.querySelector("canvas"), b = c.getBoundingClientRect(); return [b.left, b.top, c.width, c.height, b.width / c.width]; })()`)
	if len(r) != 5 || r[2] <= 0 || r[3] <= 0 {
		t.Fatalf("the canvas is %v", r)
	}
	return canvas{r[0], r[1], r[2], r[3], r[4]}
}

// subImage is the part of img inside r.
func subImage(img image.Image, r image.Rectangle) image.Image {
	if s, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return s.SubImage(r.Intersect(img.Bounds()))
	}
	return img
}

// TestInNetworkPicture opens the article's NVLS all-reduce on eight H100s
// and its CollNet all-reduce over two DGX A100 servers, pauses halfway and
// checks that the cluster view shows switches lit in the amber of a
// switch that adds (NVLS: the one NVSwitch; CollNet: the eight rails'
// leaves, so more of it). Look at the screenshots: paraplay-nvls.png and
// paraplay-collnet.png.
func TestInNetworkPicture(t *testing.T) {
	base := serve(t)
	for _, c := range []struct{ name, query string }{
		{"nvls", "strategy=collective&gpu=h100-sxm&gpus_per_node=8&algo=nvls&size=256MiB"},
		{"collnet", "strategy=collective&gpu=a100-sxm-80gb&nodes=2&gpus_per_node=8&inter=ib-hdr&algo=collnet&size=256MiB"},
	} {
		ctx, con := browser(t)
		open(t, ctx, base, "play.html?"+c.query)
		if st := state(t, ctx); st.Error != "" {
			t.Fatalf("%s: the run failed to load: %v", c.name, st)
		}
		eval[bool](t, ctx, `(paraplay.pause(), paraplay.seekFraction(0.5), true)`)
		waitFor(t, ctx, "the seek", `window.paraplay.state === "paused" && Math.abs(window.paraplay.simTime / window.paraplay.end - 0.5) < 0.01`)
		if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		img := screenshot(t, ctx, "paraplay-"+c.name+".png")
		cv := canvasOf(t, ctx)
		band := image.Rect(int(cv.left), int(cv.top), int(cv.left+cv.k*cv.w), int(cv.top+cv.k*0.55*cv.h))
		amber := near(subImage(img, band), 0xe8, 0x9a, 0x00, 6) // sim/scene's colAdding
		t.Logf("%s: %d amber pixels of switches adding", c.name, amber)
		if amber < 1000 {
			t.Errorf("%s: %d pixels of the amber of a switch that adds in the cluster view; want at least 1000", c.name, amber)
		}
		if errs := con.list(); len(errs) > 0 {
			t.Errorf("%s: console errors: %v", c.name, errs)
		}
		chromedp.Cancel(ctx)
	}
}
