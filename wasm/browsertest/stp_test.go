//go:build browser

package browsertest

import "testing"

// stpDemo is the tensor-parallelism article's STP demo as a play.html URL
// paused 100 ms into the run.
const stpDemo = "play.html?embed=1&autoplay=0&model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&tp=8&pp=2&microbatches=8&sequence_parallel=true&tp_comm_overlap=true&t=100ms"

// TestSTPDemo loads the STP demo and its unbraided twin (dualpipev, the
// same order): the braided run must end at the CLI's 393 ms, the
// unbraided one at 422 ms, each with no error.
// Look at paraplay-stp*.png.
func TestSTPDemo(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	for _, c := range []struct {
		name, schedule string
		lo, hi         float64 // the run's end, ns
	}{
		{"paraplay-stp.png", "stp", 390e6, 397e6},
		{"paraplay-stp-unbraided.png", "dualpipev", 415e6, 430e6},
	} {
		open(t, ctx, base, stpDemo+"&schedule="+c.schedule)
		st := state(t, ctx)
		if st.State != "paused" || st.Error != "" || st.End < c.lo || st.End > c.hi {
			t.Errorf("%s: got %v; want a paused run with no error ending in [%.0f, %.0f] ns", c.name, st, c.lo, c.hi)
		}
		assertDrawn(t, screenshot(t, ctx, c.name), 50)
	}
	noConsoleErrors(t, con)
}
