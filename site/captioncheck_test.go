package site

import (
	"math"
	"testing"
)

// TestCaptionChecksAgree runs every demo of every article and checks each
// closed form its caption sets beside a simulated figure: the two agree
// within the check's tolerance. The numbers are compared, not the text.
func TestCaptionChecksAgree(t *testing.T) {
	lib, err := LoadLibrary("../docs")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := renderAll("../docs", lib)
	if err != nil {
		t.Fatal(err)
	}
	worst := map[string]float64{}
	checks := 0
	for _, a := range docs {
		for i, d := range a.demos {
			for _, p := range d.parts {
				if p.Check == nil {
					continue
				}
				checks++
				sim, want := p.Simulated(), p.Expected()
				rel := math.Abs(sim-want) / math.Max(math.Max(math.Abs(sim), math.Abs(want)), 1e-300)
				worst[p.Check.Name] = math.Max(worst[p.Check.Name], rel)
				if !p.Agrees() {
					t.Errorf("%s demo %d: %s: simulated %g, %s = %g (%.3g%% apart; tolerance %.3g%%)",
						a.Slug, i+1, p.Check.Name, sim, p.Check.Formula, want, 100*rel, 100*p.Check.Tolerance)
				}
			}
		}
	}
	if checks == 0 {
		t.Fatal("no demo's caption has a check")
	}
	for name, rel := range worst {
		t.Logf("%-22s worst relative difference %.3g", name, rel)
	}
}
