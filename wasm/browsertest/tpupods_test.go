//go:build browser

package browsertest

import (
	"strings"
	"testing"
	"time"
)

// TestSiteTPUPodsArticle reads the TPU article as a newcomer would: its
// eight live demos (the v5e all-gather along one axis, the 16 × 16 pod with
// and without its wraparound links, a model axis on the wraparound ring and
// on a block without it, data parallelism along one axis and over all
// three, and LLaMA 3-70B on a whole v5p pod) show posters and captions
// from the simulator, the wraparound pair's captions carry the 2× the
// article quotes and the pod's the 47.6 days, the first demo plays its
// 8 × 4 grid in the browser, and the pod's 8,960 chips play too (its
// frame rate logged).
func TestSiteTPUPodsArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "tpu-pods.html", 8, "tpu")
	for i, c := range captions {
		if !strings.Contains(c, "simulated") && !strings.Contains(c, "MFU") {
			t.Errorf("demo %d's caption has neither a simulated figure nor an MFU: %q", i+1, c)
		}
	}
	for i, want := range map[int]string{0: "simulated 562 µs", 1: "simulated 775 µs", 2: "simulated 1.55 ms", 6: "822 tokens", 7: "47.6 days"} {
		if !strings.Contains(captions[i], want) {
			t.Errorf("demo %d's caption lacks %q: %q", i+1, want, captions[i])
		}
	}
	playDemo(t, ctx, 1, "tpu")
	eval[bool](t, ctx, `(document.querySelector("#demo-1 iframe").contentWindow.paraplay.pause(), true)`) // not to share the cores with the pod
	playDemo(t, ctx, 8, "tpu")
	player := `document.querySelector("#demo-8 iframe").contentWindow.paraplay`
	a := eval[float64](t, ctx, player+`.frames`)
	time.Sleep(5 * time.Second)
	b := eval[float64](t, ctx, player+`.frames`)
	t.Logf("the pod's demo: %.1f frames/s over 5 s (paraplay.fps %.1f; Go per frame: scene %.1f ms, batch %.1f ms)",
		(b-a)/5, eval[float64](t, ctx, player+`.fps`), eval[float64](t, ctx, player+`.buildMs`), eval[float64](t, ctx, player+`.drawMs`))
	noConsoleErrors(t, con)
}
