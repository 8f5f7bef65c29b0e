//go:build !js

package rlhf

import (
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
)

// searchBase is the article's disaggregated run (64 prompts of 256 tokens,
// 512-token responses, the default models).
func searchBase(t *testing.T) Config {
	t.Helper()
	s, err := scenario.Parse([]byte("strategy: rlhf\ngpus: 8\niterations: 16\nrlhf: {placement: disaggregated, gen_gpus: 4, gen_gpu: h20, train_gpu: h100-sxm, prompts: 64, prompt_len: 256, response_len: 2048}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromScenario(&s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSearchBeatsHomogeneous: at equal hourly cost (the budget caps both),
// the deployment the search chooses over H100, H20 and A100 pools runs
// faster than the best deployment of one GPU type; and the chosen one
// costs no more than the budget.
func TestSearchBeatsHomogeneous(t *testing.T) {
	types := []string{"h100-sxm", "h20", "a100-sxm-80gb"}
	for _, budget := range []float64{12, 20, 40} {
		best, homo, err := Search(searchBase(t), types, budget)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("$%g/h: best %+v; homogeneous %+v; gain %.3f×", budget, best, homo, best.Rate/homo.Rate)
		if best.PerHour > budget || homo.PerHour > budget {
			t.Errorf("$%g/h: over budget: %v, %v", budget, best.PerHour, homo.PerHour)
		}
		if best.Rate <= homo.Rate || best.GenGPU == best.TrainGPU {
			t.Errorf("$%g/h: chosen %+v does not beat homogeneous %+v", budget, best, homo)
		}
	}
}

// TestSearchIsExhaustive compares Search (cached generation times, early
// stop once generation bounds the rate) with every deployment rated by
// Phases directly, at 12 dollars an hour.
func TestSearchIsExhaustive(t *testing.T) {
	types := []string{"h100-sxm", "h20", "a100-sxm-80gb"}
	const budget = 12.0
	base := searchBase(t)
	best, _, err := Search(base, types, budget)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, gn := range types {
		for _, tn := range types {
			g, _ := hw.LookupGPU(gn)
			tr, _ := hw.LookupGPU(tn)
			for ng := 1; float64(ng)*AssumedPrice(gn) <= budget; ng++ {
				for nt := 1; float64(ng)*AssumedPrice(gn)+float64(nt)*AssumedPrice(tn) <= budget; nt++ {
					for _, tp := range []int{1, 2, 4, 8} {
						c := base
						c.Placement, c.Staleness, c.Queue = Disaggregated, Unbounded, 0
						c.GenGPU, c.TrainGPU, c.GPUs, c.GenGPUs, c.GenTP = g, tr, ng+nt, ng, tp
						if ng%tp != 0 || c.Validate() != nil {
							continue
						}
						if m := c.Memory(); m[0].Peak > g.HBM || m[1].Peak > tr.HBM {
							continue
						}
						ph := c.Phases()
						want = max(want, min(1/ph.Generate.Seconds(), 1/ph.TrainerStep(c.SyncEvery)))
					}
				}
			}
		}
	}
	if best.Rate != want {
		t.Errorf("Search's best rate %g, exhaustive %g", best.Rate, want)
	}
}
