//go:build browser

package browsertest

import (
	"image"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// TestSiteBeyondBackpropArticle reads the beyond-backprop article as a
// newcomer would: its nine demos show posters and captions with the
// simulator's numbers (the local-loss pipeline's beside its closed form,
// the layer-parallel multigrid step beside its,
// the subnetwork runs' model states and gradient bytes beside theirs,
// partitioned pretraining's sub-model FLOPs beside theirs), each is saved
// as a screenshot, and the local-loss, multigrid and partitioned demos
// play.
func TestSiteBeyondBackpropArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "beyond-backprop.html", 9, "backprop")
	for i, c := range captions {
		if !strings.Contains(c, "simulated") && !strings.Contains(c, "MFU") {
			t.Errorf("demo %d's caption has neither a simulated figure nor an MFU: %q", i+1, c)
		}
	}
	if c := captions[1]; !strings.Contains(c, "simulated iteration 27 ms; formula m(T_F+T_B+T_W)+(p−1)T_F = 27 ms") {
		t.Errorf("the local-loss caption lacks its iteration cross-check: %q", c)
	}
	if c := captions[2]; !strings.Contains(c, "simulated run 2.35 s for a step; closed form 2.35 s") || !strings.Contains(c, "breaks even beyond 8.5 GPUs") {
		t.Errorf("the layer-parallel caption lacks its step cross-check or its break-even: %q", c)
	}
	if c := captions[8]; !strings.Contains(c, "72·B·s·l·(h/k)²") || !strings.Contains(c, "phase 1: 4 sub-models") {
		t.Errorf("the partitioned caption lacks its phases or its FLOPs check: %q", c)
	}
	for i, want := range map[int]string{4: "formula 2Ψ + 14·Ψ_w = 11.7 GiB", 5: "formula 16·Ψ_w = 10.6 GiB", 7: "gradient bytes a worker sums 781 MiB"} {
		if !strings.Contains(captions[i], want) {
			t.Errorf("demo %d's caption lacks %q: %q", i+1, want, captions[i])
		}
	}
	playDemo(t, ctx, 2, "backprop")
	playDemo(t, ctx, 3, "backprop")
	playDemo(t, ctx, 9, "backprop")
	noConsoleErrors(t, con)
}

// sdpCluster is the article's cluster demo: eight workers on two H100
// servers, a quarter of GPT-3 1.3B's blocks each, cyclic pairs.
const sdpCluster = "play.html?embed=1&autoplay=0&model=gpt3-1.3b&gpu=h100-sxm&nodes=2&gpus_per_node=4&inter=eth-100g&dp=8&microbatches=4&micro_batch_size=2"

// TestSDPGroupedReduction opens subnetwork data parallelism's cluster demo
// paused during its gradient sums and looks at the cluster view: packets in
// the SDP group sums' colour cross the network (the pairs that straddle
// the servers, GPUs 3 and 4, 7 and 0), where plain data parallelism at
// the same instant draws none in it. A step with → then moves the run on.
func TestSDPGroupedReduction(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	orange := func(q, name string) int {
		open(t, ctx, base, sdpCluster+q+"&t=72ms")
		st := state(t, ctx)
		if st.State != "paused" || st.Error != "" || st.End <= 0 {
			t.Fatalf("%s: got %v; want a paused run with no error", name, st)
		}
		img := screenshot(t, ctx, name)
		assertDrawn(t, img, 50)
		return groupPixels(img)
	}
	sdp := orange("&sdp=0.25&sdp_masking=forward", "paraplay-sdp-cluster.png")
	plain := orange("", "paraplay-sdp-cluster-plain-dp.png")
	t.Logf("SDP-group-sum pixels in the cluster view: %d with parallel.sdp, %d without", sdp, plain)
	if sdp < 40 || plain > sdp/10 {
		t.Errorf("the cluster view shows %d pixels of SDP group sums (plain data parallelism: %d); want packets of them on the links", sdp, plain)
	}
	press(t, ctx, kb.ArrowRight)
	waitFor(t, ctx, "→ to step to the next event", `window.paraplay.simTime > 72000000`)
	noConsoleErrors(t, con)
}

// groupPixels counts the pixels of the upper 53% of img (the cluster
// view, above the legend and the strip) in the SDP group sums' colour,
// #e69f00.
func groupPixels(img image.Image) int {
	b := img.Bounds()
	top := image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+b.Dy()*53/100)
	return near(img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(top), 0xe6, 0x9f, 0x00, 12)
}
