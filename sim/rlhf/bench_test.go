package rlhf

import "testing"

// BenchmarkSimulateDisaggregated times the largest run a scenario allows:
// 64 steps on 64 GPUs.
func BenchmarkSimulateDisaggregated(b *testing.B) {
	c := smallConfig(b, Disaggregated)
	c.GPUs, c.GenGPUs, c.Steps, c.Staleness = 64, 16, MaxSteps, 2
	for b.Loop() {
		if _, err := Simulate(c, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
