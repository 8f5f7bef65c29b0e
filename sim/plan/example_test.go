package plan_test

import (
	"fmt"

	"paraplay/sim/plan"
	"paraplay/sim/scenario"
)

// Plan Llama 3 8B (2,048-token sequences) on two servers of four H100s for
// a global batch of 16 sequences, and print the winner and the counts.
func ExampleRun() {
	cfg := plan.Config{
		Model:       scenario.Model{Preset: "llama3-8b", SeqLen: 2048},
		Cluster:     scenario.Cluster{GPU: "h100-sxm", Nodes: 2, GPUsPerNode: 4},
		GlobalBatch: 16,
	}
	r, err := plan.Run(cfg, 2, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	best := r.Plans[0]
	p := best.Scenario.Parallel
	fmt.Printf("best: dp %d × tp %d × pp %d × cp %d, %s, b=%d × m=%d, ZeRO-%d, recompute %s\n",
		p.DP, p.TP, p.PP, p.CP, p.Schedule, p.MicroBatchSize, p.Microbatches, p.ZeRO, p.Recompute)
	fmt.Printf("iteration %.0f ms, MFU %.1f%%, fits: %v\n", best.Result.Iteration.Seconds()*1e3, best.Result.MFU*100, best.Fits)
	pr := r.Progress
	fmt.Printf("%d plans: %d out of memory, %d dominated, %d ruled out by the bound, %d simulated\n",
		pr.Plans, pr.OutOfMemory, pr.Dominated, pr.Bounded, pr.Simulated)
	fmt.Println("runner-up lost on:", r.Plans[1].Reason)
	// Output:
	// best: dp 8 × tp 1 × pp 1 × cp 1, 1f1b, b=2 × m=1, ZeRO-3, recompute none
	// iteration 321 ms, MFU 62.2%, fits: true
	// 3906 plans: 55 out of memory, 668 dominated, 3179 ruled out by the bound, 4 simulated
	// runner-up lost on: compute
}

// Run a search in slices, as a browser does between frames.
func ExampleSearch_Step() {
	s, err := plan.New(plan.Config{
		Model:       scenario.Model{Preset: "gpt3-1.3b"},
		Cluster:     scenario.Cluster{GPU: "a100-sxm-80gb", Nodes: 1, GPUsPerNode: 8},
		GlobalBatch: 32,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for !s.Step(50) {
		_ = s.Progress() // draw a progress bar
	}
	r, _ := s.Result()
	fmt.Println(r.Plans[0].Family, r.Plans[0].Status)
	// Output: dp best
}
