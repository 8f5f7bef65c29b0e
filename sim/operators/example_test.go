package operators_test

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Llama 3 8B's layer on one of four tensor-parallel GPUs: what it keeps
// for the backward pass with flash and with eager attention, and what it
// costs on an H100 at a flat 60% of peak.
func ExampleLayer() {
	m, _ := workload.LookupModel("llama3-8b")
	c := operators.Config{Model: m, MicroBatch: 1, TP: 4, SequenceParallel: true, CP: 1,
		Attention: operators.Flash, Causal: true, Precision: operators.BF16, Recompute: workload.RecomputeNone}
	flash, err := operators.Layer(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Attention = operators.Eager
	eager, _ := operators.Layer(c)

	gpu, _ := hw.LookupGPU("h100-sxm")
	pricer, _ := operators.NewPricer(operators.FromGPU(gpu, func(operators.Shape) float64 { return 0.6 }))
	forward, _ := pricer.Total(flash.InPhase(operators.Forward))
	mib := float64(units.MiB)
	fmt.Printf("flash keeps %.0f MiB, eager %.0f MiB\n", flash.Totals().Saved()/mib, eager.Totals().Saved()/mib)
	fmt.Printf("%d kernels; forward %v\n", flash.Totals().Kernels, forward.Rounded(3))
	// Output:
	// flash keeps 272 MiB, eager 1320 MiB
	// 26 kernels; forward 1.88ms
}
