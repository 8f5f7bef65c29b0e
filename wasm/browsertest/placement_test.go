//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSitePlacement reads the pipeline article's placement demos (Luo et
// al.'s question: which server runs which stage): the servers in order
// with the slow port on stage 1, then the planner's map with it on the
// last stage; both captions name the GPUs per node, and the planned demo
// plays.
func TestSitePlacement(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "pipeline.html", 14, "placement")
	for n, want := range map[int]string{13: "h100-sxm*2,a100-sxm-80gb*2", 14: "h100-sxm,a100-sxm-80gb*2,h100-sxm"} {
		if !strings.Contains(captions[n-1], want) {
			t.Errorf("demo %d's caption lacks %q: %q", n, want, captions[n-1])
		}
	}
	playDemo(t, ctx, 14, "placement")
	noConsoleErrors(t, con)
}
