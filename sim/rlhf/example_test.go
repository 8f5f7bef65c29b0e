package rlhf_test

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/rlhf"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// A disaggregated run: two H20s generate, six H100s score and train, and
// the generator may run one policy version ahead of the trainer.
func Example() {
	m, _ := workload.LookupModel("llama3-8b")
	h20, _ := hw.LookupGPU("h20")
	h100, _ := hw.LookupGPU("h100-sxm")
	c := rlhf.Config{Placement: rlhf.Disaggregated, Actor: m, Reference: m, Reward: m, Critic: m,
		Prompts: 32, PromptLen: 256, ResponseLen: 512, GPUs: 8, GenGPUs: 2, GenTP: 1,
		GenGPU: h20, TrainGPU: h100, GenPrice: 1, TrainPrice: 2.5,
		Staleness: 1, SyncEvery: 1, SyncBandwidth: 50 * units.GBps, Steps: 4}
	tl, err := rlhf.Simulate(c, "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tl.RLHF.Steps {
		fmt.Printf("step %d: generated from %.2fs with version %d, trained until %.2fs\n",
			s.Index, s.GenStart.Seconds(), s.Version, s.TrainEnd.Seconds())
	}
	fmt.Printf("cost $%.4f\n", tl.RLHF.CostAt(tl.End))
	// Output:
	// step 0: generated from 0.00s with version 0, trained until 4.28s
	// step 1: generated from 3.08s with version 0, trained until 7.36s
	// step 2: generated from 6.16s with version 1, trained until 10.44s
	// step 3: generated from 9.25s with version 2, trained until 13.52s
	// cost $0.0654
}
