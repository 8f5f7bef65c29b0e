//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteHAPT reads the heterogeneous article's HAPT demos: whole layers
// balanced, then the cut between attention blocks and MLPs (its caption
// sets the slowest stage beside the balanced closed form T*), then 1F1B
// and the re-timed hetero-1f1b over 10 Gb Ethernet (its caption sets the
// pipeline beside 1F1B's makespan with every send hidden); the re-timed
// demo plays.
func TestSiteHAPT(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "heterogeneous.html", 10, "hapt")
	for _, c := range []struct {
		demo int
		want string
	}{{5, "T* ="}, {7, "every send hidden"}, {7, "extra warm-up forwards"}} {
		if !strings.Contains(captions[c.demo-1], c.want) {
			t.Errorf("demo %d's caption lacks %q: %q", c.demo, c.want, captions[c.demo-1])
		}
	}
	if strings.Contains(captions[3], "T* =") {
		t.Errorf("demo 4 (whole layers) has the operator split's caption: %q", captions[3])
	}
	playDemo(t, ctx, 7, "hapt")
	noConsoleErrors(t, con)
}
