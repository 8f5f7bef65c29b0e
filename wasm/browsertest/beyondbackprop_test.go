//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteBeyondBackpropArticle reads the beyond-backprop article as a
// newcomer would: its five demos show posters and captions with the
// simulator's numbers (the local-loss pipeline's beside its closed form,
// partitioned pretraining's sub-model FLOPs beside theirs), each is saved
// as a screenshot, and the local-loss and partitioned demos play.
func TestSiteBeyondBackpropArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "beyond-backprop.html", 5, "backprop")
	for i, c := range captions {
		if !strings.Contains(c, "simulated") && !strings.Contains(c, "MFU") {
			t.Errorf("demo %d's caption has neither a simulated figure nor an MFU: %q", i+1, c)
		}
	}
	if c := captions[1]; !strings.Contains(c, "simulated iteration 27 ms; formula m(T_F+T_B+T_W)+(p−1)T_F = 27 ms") {
		t.Errorf("the local-loss caption lacks its iteration cross-check: %q", c)
	}
	if c := captions[4]; !strings.Contains(c, "72·B·s·l·(h/k)²") || !strings.Contains(c, "phase 1: 4 sub-models") {
		t.Errorf("the partitioned caption lacks its phases or its FLOPs check: %q", c)
	}
	playDemo(t, ctx, 2, "backprop")
	playDemo(t, ctx, 5, "backprop")
	noConsoleErrors(t, con)
}
