package hw_test

import (
	"fmt"

	"paraplay/sim/hw"
)

func ExampleLookupGPU() {
	g, err := hw.LookupGPU("h100-sxm")
	if err != nil {
		panic(err)
	}
	link, _ := hw.LookupLink(g.Link)
	fmt.Printf("%s: %.1f TFLOP/s dense %s, %v HBM\n", g.DisplayName, g.PeakFLOPS/1e12, g.Precision, g.HBM)
	fmt.Printf("%d per node over %s: %.0f GB/s per direction, %.0f GB/s effective\n",
		g.GPUsPerNode, link.Name, float64(link.LineRate)/1e9, float64(link.Effective())/1e9)
	// Training a 7B-parameter model on 4M tokens costs 6·N·D FLOPs; on one
	// GPU at the default (assumed) efficiency of 0.5:
	fmt.Println("compute on one GPU:", g.ComputeTime(6*7e9*4e6, 0))
	// Output:
	// NVIDIA H100 SXM5 80GB: 989.4 TFLOP/s dense bf16, 80GiB HBM
	// 8 per node over nvlink4: 450 GB/s per direction, 369 GB/s effective
	// compute on one GPU: 339.599757429s
}
