//go:build !js

package opgraph

import (
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// inception3a is GoogLeNet's module 3a (Szegedy et al. 2015, "Going
// Deeper with Convolutions", Table 1) on its 28×28×192 input: a 1×1
// convolution to 64; 1×1 to 96 then 3×3 to 128; 1×1 to 16 then 5×5 to
// 32; a 3×3 max pool then 1×1 to 32.
func inception3a() []Branch {
	conv := func(in, out, k int) Op {
		return Op{Kind: Conv, In: in, Out: out, Kernel: k, Stride: 1, H: 28, W: 28, Steps: 1}
	}
	pool := Op{Kind: MaxPool, In: 192, Out: 192, Kernel: 3, Stride: 1, H: 28, W: 28, Steps: 1}
	return []Branch{{conv(192, 64, 1)}, {conv(192, 96, 1), conv(96, 128, 3)}, {conv(192, 16, 1), conv(16, 32, 5)}, {pool, conv(192, 32, 1)}}
}

// TestPlaceClosedForm holds the placed module to its critical path (see
// place.go): on two H100s over NVLink (one remote GPU, so no two sends
// share a link) exactly, and on four with free links within a nanosecond
// a message; and the placement beats one GPU.
func TestPlaceClosedForm(t *testing.T) {
	gpu, _ := hw.LookupGPU("h100-sxm")
	br := inception3a()
	const b = 128
	in := units.Bytes(28 * 28 * 192 * b * bytesPerElement)
	for _, G := range []int{2, 4} {
		r := Run{GPU: "h100-sxm", GPUs: G, Batch: b}
		alpha, bw, err := pathCost(r)
		if err != nil {
			t.Fatal(err)
		}
		if G == 4 { // free links: the closed form has no sends to share
			alpha, bw = 0, ideal.Bandwidth
		}
		on, want, err := PlaceBranches(br, in, b, G, gpu, alpha, bw)
		if err != nil {
			t.Fatal(err)
		}
		var one units.Time
		for _, x := range br {
			one += branchTime(x, b, gpu)
		}
		s := hostScenario(r)
		if G == 4 {
			s.Cluster.Network = "ideal"
		}
		tl, err := simulatePlaced(br, on, in, b, G, s)
		if err != nil {
			t.Fatal(err)
		}
		if d := tl.End - want; d < 0 || d > 8 {
			t.Errorf("%d GPUs, placement %v: simulated %v, critical path %v", G, on, tl.End, want)
		}
		if want >= one {
			t.Errorf("%d GPUs: placed %v, one GPU %v; want faster", G, want, one)
		}
		t.Logf("inception 3a, %d images on %d H100s: placement %v, %v (one GPU %v, %.2f×)", b, G, on, want, one, one.Seconds()/want.Seconds())
	}
}
