//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteMoEArticle reads the mixture-of-experts article's demos: the
// balanced all-to-all's exposed time on one node, across two nodes flat
// and hierarchical with FP8 dispatch, 1F1B against DualPipeV, and the
// two half-microbatches that hide every all-to-all; then it plays the
// DualPipeV demo, whose timeline draws each overlapped pair's hidden
// all-to-alls in the communication lane under the other half's compute
// (saved as paraplay-moe-demo7-playing.png in $TMPDIR), and the
// half-microbatch demo, which draws them under each forward and backward
// (paraplay-moe-demo8-playing.png).
func TestSiteMoEArticle(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "mixture-of-experts.html", 8, "moe")
	for i, want := range map[int]string{
		0: "exposed EP 5.15 ms",
		3: "exposed EP 24 ms",
		4: "exposed EP 13.7 ms",
		5: "exposed EP 96 ms",
		6: "exposed EP 27 ms",
		7: "exposed EP 0 ns",
	} {
		if !strings.Contains(captions[i], want) {
			t.Errorf("demo %d's caption lacks %q: %q", i+1, want, captions[i])
		}
	}
	playDemo(t, ctx, 7, "moe")
	playDemo(t, ctx, 8, "moe")
	noConsoleErrors(t, con)
}
