package training

import (
	"math"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
)

// TestCostFollowsBusyFractions holds a training run's estimate to the
// cost model computed here from the summary itself: each GPU's power is
// its preset's idle + (TDP − idle) × its busy fraction, the price its
// preset's rate (or cost.gpu_hour), on one GPU type and on a mixed
// cluster.
func TestCostFollowsBusyFractions(t *testing.T) {
	tests := []struct {
		name, yaml string
		gpuHour    float64
	}{
		{"h100, assumed rate", "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 2, tp: 2, pp: 2, microbatches: 4}\ntraining: {tokens: 2T}\n", 0},
		{"mixed, set rate", "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4, node_gpus: [h100-sxm, a100-sxm-80gb]}\nparallel: {dp: 2, tp: 2, pp: 2, microbatches: 4}\ntraining: {tokens: 3B}\ncost: {gpu_hour: 4, pue: 1.5, grid_kg_per_kwh: 0.2}\n", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenario.Parse([]byte(tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			sum := strategytest.MustRun(t, Simulate, s).Summarize()
			e := sum.Estimate
			if e == nil {
				t.Fatal("no estimate with training.tokens set")
			}
			set := CostSettings(&s)
			var watts, dollars float64
			for i, g := range sum.GPUs {
				name := s.Cluster.GPU
				if len(s.Cluster.NodeGPUs) > 0 {
					name = s.Cluster.NodeGPUs[i/s.Cluster.GPUsPerNode]
				}
				h, _ := hw.LookupGPU(name)
				watts += h.IdlePower + (h.TDP-h.IdlePower)*g.Busy
				dollars += h.Price
				if tc.gpuHour > 0 {
					dollars += tc.gpuHour - h.Price
				}
			}
			secs := s.Training.Tokens / sum.TokensPerSecond
			n := float64(len(sum.GPUs))
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"days", e.Days, secs / 86400},
				{"gpu_hours", e.GPUHours, n * secs / 3600},
				{"cost_usd", e.CostUSD, dollars * secs / 3600},
				{"energy_kwh", e.EnergyKWh, watts * set.PUE * secs / 3.6e6},
				{"co2_kg", e.CO2Kg, watts * set.PUE * secs / 3.6e6 * set.GridKgPerKWh},
			} {
				if math.Abs(c.got-c.want) > 1e-9*c.want {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			if e.Assumed != (tc.gpuHour == 0) {
				t.Errorf("assumed rate %v with cost.gpu_hour %v", e.Assumed, tc.gpuHour)
			}
		})
	}
}

// TestNoBudgetNoEstimate: without training.tokens the summary (and so its
// JSON) carries no cost figures.
func TestNoBudgetNoEstimate(t *testing.T) {
	s, err := scenario.Parse([]byte("model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 2}\nparallel: {dp: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum := strategytest.MustRun(t, Simulate, s).Summarize()
	if sum.Estimate != nil {
		t.Errorf("estimate %+v without a token budget", sum.Estimate)
	}
	if _, _, _, ok := sum.CostIteration(); !ok {
		t.Error("no cost iteration for a run of catalog GPUs (a long run prices its wall time with it)")
	}
}
