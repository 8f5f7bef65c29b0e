//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteHierarchicalZeRO reads the ZeRO article's hierarchical demos:
// full ZeRO-3 over two servers and ZeRO-3 within each (zero_group 8), each
// caption setting the model states and the bytes sent between the servers
// beside their closed forms; the hierarchical demo plays.
func TestSiteHierarchicalZeRO(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "zero-fsdp.html", 12, "hzp")
	for i, want := range map[int][]string{
		5: {"16Ψ/g = 7.5 GiB", "bytes sent between servers per iteration 224 GiB; closed form 224 GiB"},
		6: {"16Ψ/g = 15.0 GiB", "bytes sent between servers per iteration 29.9 GiB; closed form 29.9 GiB"},
	} {
		for _, w := range want {
			if !strings.Contains(captions[i], w) {
				t.Errorf("demo %d's caption lacks %q: %q", i+1, w, captions[i])
			}
		}
	}
	playDemo(t, ctx, 7, "hzp")
	noConsoleErrors(t, con)
}
