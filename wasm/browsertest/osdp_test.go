//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSitePerLayerSharding reads the ZeRO article's per-layer sharding
// demos: full ZeRO-3 and ZeRO-3 on 20 of 40 layers (zero_layers 20), whose
// caption sets the model states beside the sum over the layers; the
// per-layer demo plays.
func TestSitePerLayerSharding(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "zero-fsdp.html", 12, "osdp")
	if w := "16Ψ_sh/N_d + 2Ψ_wh + 14Ψ_wh/N_d"; !strings.Contains(captions[8], w) {
		t.Errorf("demo 9's caption lacks %q: %q", w, captions[8])
	}
	if strings.Contains(captions[7], "Ψ_wh") {
		t.Errorf("demo 8 (full ZeRO-3) has a per-layer caption: %q", captions[7])
	}
	playDemo(t, ctx, 9, "osdp")
	noConsoleErrors(t, con)
}
