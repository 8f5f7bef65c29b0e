//go:build browser

package browsertest

import "testing"

// The two demos of issue 25 built so far, as play.html URLs paused 20 ms
// into the run: cyclic data parallelism (ring-allreduce.md) and the
// ready-first pipeline (pipeline.md).
const (
	cyclicDemo     = "play.html?embed=1&autoplay=0&model=gpt3-1.3b&gpu=h100-sxm&nodes=1&gpus_per_node=4&dp=4&microbatches=4&schedule=gpipe&cyclic=true&t=20ms"
	readyFirstDemo = "play.html?embed=1&autoplay=0&model=gpt3-1.3b&gpu=h100-sxm&nodes=1&gpus_per_node=4&pp=4&microbatches=8&schedule=ready-first&seq_dist=lognormal&seq_cv=1&iterations=2&t=20ms"
)

// TestRuntimePipes loads both demos in the browser. The cyclic run must
// show its stagger: replicas start 40.5 ms apart, so its first step ends
// at about 283 ms, where the same replicas in step end at about 163 ms;
// the ready-first run its two steps, 476 ms in all (the CLI's and the
// captions' figures). Each is saved as a screenshot.
func TestRuntimePipes(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	for _, c := range []struct {
		name, url string
		lo, hi    float64 // the run's end, ns
	}{
		{"paraplay-cyclic-dp.png", cyclicDemo, 280e6, 286e6},
		{"paraplay-cyclic-dp-in-step.png", "play.html?embed=1&autoplay=0&model=gpt3-1.3b&gpu=h100-sxm&nodes=1&gpus_per_node=4&dp=4&microbatches=4&schedule=gpipe&t=20ms", 160e6, 166e6},
		{"paraplay-ready-first.png", readyFirstDemo, 470e6, 482e6},
	} {
		open(t, ctx, base, c.url)
		st := state(t, ctx)
		if st.State != "paused" || st.Error != "" || st.End < c.lo || st.End > c.hi {
			t.Errorf("%s: got %v; want a paused run with no error ending in [%.0f, %.0f] ns", c.name, st, c.lo, c.hi)
		}
		assertDrawn(t, screenshot(t, ctx, c.name), 50)
	}
	noConsoleErrors(t, con)
}
