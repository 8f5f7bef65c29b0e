//go:build browser

package browsertest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"paraplay/sim/scenario"
)

// TestParameterServerScenario opens the SSP scenario of
// sim/scenario/testdata in the player, pauses at 60.5 ms, when the two
// full-speed workers wait at the bound: their amber "lag 2/2" badges must
// show. Look at the screenshot: paraplay-ps-ssp.png.
func TestParameterServerScenario(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "sim", "scenario", "testdata", "ps-ssp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	base := serve(t)
	ctx, con := browser(t)
	open(t, ctx, base, "play.html?"+s.Query().Encode())
	if st := state(t, ctx); st.Error != "" {
		t.Fatalf("the parameter-server scenario failed to load: %v", st)
	}
	const at = 60.5e6
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`paraplay.pause(); paraplay.seek(`+ftoa(at)+`)`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the seek", `Math.abs(window.paraplay.simTime - `+ftoa(at)+`) < 1e6 && window.paraplay.state === "paused"`)
	if err := chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	img := screenshot(t, ctx, "paraplay-ps-ssp.png")
	assertDrawn(t, img, 50)
	// The badge at the bound is #f6c14b.
	if n := near(img, 0xf6, 0xc1, 0x4b, 12); n < 300 {
		t.Errorf("%d pixels of the at-the-bound badge amber, want ≥ 300", n)
	}
	for _, e := range con.list() {
		t.Errorf("console: %s", e)
	}
}
