//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteTPUPodsArticle reads the TPU article as a newcomer would: its
// seven live demos (the v5e all-gather along one axis, the 16 × 16 pod with
// and without its wraparound links, a model axis on the wraparound ring and
// on a block without it, data parallelism along one axis and over all
// three) show posters and captions from the simulator, the
// wraparound pair's captions carry the 2× the article quotes, and the
// first demo plays its 8 × 4 grid in the browser.
func TestSiteTPUPodsArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "tpu-pods.html", 7, "tpu")
	for i, c := range captions {
		if !strings.Contains(c, "simulated") && !strings.Contains(c, "MFU") {
			t.Errorf("demo %d's caption has neither a simulated figure nor an MFU: %q", i+1, c)
		}
	}
	for i, want := range map[int]string{0: "simulated 562 µs", 1: "simulated 775 µs", 2: "simulated 1.55 ms", 6: "822 tokens"} {
		if !strings.Contains(captions[i], want) {
			t.Errorf("demo %d's caption lacks %q: %q", i+1, want, captions[i])
		}
	}
	playDemo(t, ctx, 1, "tpu")
	noConsoleErrors(t, con)
}
