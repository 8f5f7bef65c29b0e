//go:build !js

package rlhf

import (
	"testing"

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
