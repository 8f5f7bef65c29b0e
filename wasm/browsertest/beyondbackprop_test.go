//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteBeyondBackpropArticle reads the beyond-backprop article as a
// newcomer would: its four demos show posters and captions with the
// simulator's numbers (the local-loss pipeline's beside its closed form),
// each is saved as a screenshot, and the local-loss demo plays.
func TestSiteBeyondBackpropArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "beyond-backprop.html", 4, "backprop")
	for i, c := range captions {
		if !strings.Contains(c, "simulated") && !strings.Contains(c, "MFU") {
			t.Errorf("demo %d's caption has neither a simulated figure nor an MFU: %q", i+1, c)
		}
	}
	if c := captions[1]; !strings.Contains(c, "simulated iteration 27 ms; formula m(T_F+T_B+T_W)+(p−1)T_F = 27 ms") {
		t.Errorf("the local-loss caption lacks its iteration cross-check: %q", c)
	}
	playDemo(t, ctx, 2, "backprop")
	noConsoleErrors(t, con)
}
