//go:build browser

package browsertest

import (
	"context"
	"testing"

	"paraplay/sim/timeline"
)

// TestSwarmPeerMoves opens the internet article's SWARM demo in its full
// page and pauses it while the first peer moves to another stage: that
// peer's row must carry the replanning blue band (labelled with its new
// stage), which a frame before the first rebalance does not show. Then
// the SkipPipe demo: the run must end when the CLI's does (97 s, where
// the same peers without skipping take 186 s) and its first move must be
// banded too. Look at paraplay-swarm-*.png and paraplay-skippipe-*.png.
func TestSwarmPeerMoves(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	for _, c := range []struct {
		title, shot string
		lo, hi      float64 // the run's end, ns
	}{
		{"SWARM on eight mixed peers", "swarm", 195e9, 210e9},
		{"SkipPipe on eighteen peers", "skippipe", 95e9, 99e9},
	} {
		full, move := firstMove(t, ctx, base, c.title)
		open(t, ctx, base, full+"&autoplay=0")
		st := state(t, ctx)
		if st.Error != "" || st.End < c.lo || st.End > c.hi {
			t.Fatalf("%s: got %v; want a run with no error ending in [%.0f, %.0f] ns", c.title, st, c.lo, c.hi)
		}
		pauseAt(t, ctx, float64(move.Start)/2, 1e6)
		before := screenshot(t, ctx, "paraplay-"+c.shot+"-before.png")
		pauseAt(t, ctx, float64(move.Start+move.End)/2, 1e6)
		during := screenshot(t, ctx, "paraplay-"+c.shot+"-moving.png")
		assertDrawn(t, during, 50)
		// The replanning band is #1d3f8c (scene's colReplan).
		if n := near(before, 0x1d, 0x3f, 0x8c, 10); n > 200 {
			t.Errorf("%s before the first move: %d pixels of the replanning blue, want almost none", c.title, n)
		}
		if n := near(during, 0x1d, 0x3f, 0x8c, 10); n < 200 {
			t.Errorf("%s while peer %d moves: %d pixels of the replanning blue, want ≥ 200", c.title, move.GPU, n)
		}
	}
	noConsoleErrors(t, con)
}

// firstMove finds the demo titled title in internet-training.html and
// returns its full-page link and its first move (from a simulation of
// the link's scenario).
func firstMove(t *testing.T, ctx context.Context, base, title string) (string, timeline.State) {
	t.Helper()
	full, tl := demoRun(t, ctx, base, "internet-training.html", title)
	for _, st := range tl.States {
		if st.State == timeline.StateReplan {
			t.Logf("%s: first move: peer %d to %s, %v–%v", title, st.GPU, st.Group, st.Start, st.End)
			return full, st
		}
	}
	t.Fatalf("%s moves no peer", title)
	return "", timeline.State{}
}
