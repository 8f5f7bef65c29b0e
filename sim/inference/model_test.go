package inference

import (
	"fmt"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

func llama8b(t testing.TB) workload.Model {
	m, err := workload.LookupModel("llama3-8b")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestKVBytesPerToken(t *testing.T) {
	m := llama8b(t)
	for _, tc := range []struct {
		layers, tp int
		want       units.Bytes
	}{
		{32, 1, 131072}, // 2 · 32 · 8 · 128 · 2: Llama 3 8B's 128 KiB per token
		{8, 1, 32768},
		{32, 8, 16384},
	} {
		if got := KVBytesPerToken(m, tc.layers, tc.tp); got != tc.want {
			t.Errorf("KVBytesPerToken(llama3-8b, %d layers, tp %d) = %v, want %v", tc.layers, tc.tp, got, tc.want)
		}
	}
	// Without grouped-query attention the cache would be heads/kv_heads =
	// 4 times larger.
	mha := m
	mha.KVHeads = 0
	if got, want := KVBytesPerToken(mha, 32, 1), units.Bytes(4*131072); got != want {
		t.Errorf("multi-head cache %v, want %v", got, want)
	}
}

func TestRooflineRegimes(t *testing.T) {
	gpu, _ := hw.LookupGPU("h100-sxm")
	st := Stage{Model: llama8b(t), Layers: 32, First: true, Last: true, TP: 1, GPU: gpu}
	if c := st.Decode(8, 1024); !c.MemoryBound() {
		t.Errorf("a decode step of 8 requests is compute bound: %+v", c)
	}
	if c := st.Prefill(8, 1024); c.MemoryBound() {
		t.Errorf("a prefill of 8 k tokens is memory bound: %+v", c)
	}
	// The decode time is the weights and the cache over the bandwidth.
	c := st.Decode(8, 1024)
	want := units.Round(float64(st.ReadWeightBytes()+8*1024*131072) / 3350e9)
	if c.Time != want {
		t.Errorf("decode step %v, want %v", c.Time, want)
	}
}

func TestSharedOwnership(t *testing.T) {
	m := llama8b(t)
	m.Layers = 10
	s := Shared{Model: m, GPUs: 4, Fetch: true}
	owned := make([]int, 4)
	for l := range m.Layers {
		owned[s.Owner(l)]++
		if l > 0 && s.Owner(l) < s.Owner(l-1) {
			t.Errorf("layer %d owned by %d after layer %d by %d: blocks not contiguous", l, s.Owner(l), l-1, s.Owner(l-1))
		}
	}
	for i, n := range owned {
		if n != s.OwnedLayers(i) {
			t.Errorf("GPU %d owns %d layers, OwnedLayers says %d", i, n, s.OwnedLayers(i))
		}
	}
}

func TestSplit(t *testing.T) {
	if got := fmt.Sprint(SplitLayers(10, 4)); got != "[3 3 2 2]" {
		t.Errorf("SplitLayers(10, 4) = %s", got)
	}
}

// Example prints Llama 3 8B's cache per token and how many tokens fit on
// one H100 beside a full copy of the weights, and beside SiDP's share of
// them on 8 GPUs.
func Example() {
	m, _ := workload.LookupModel("llama3-8b")
	gpu, _ := hw.LookupGPU("h100-sxm")
	per := KVBytesPerToken(m, m.Layers, 1)
	full := Stage{Model: m, Layers: m.Layers, First: true, Last: true, TP: 1, GPU: gpu}
	shared := Shared{Model: m, GPUs: 8, Fetch: true}
	fmt.Println("KV per token:", per)
	fmt.Println("weights, replicated:", full.WeightBytes())
	fmt.Println("weights, shared by 8:", shared.WeightBytes(0))
	fmt.Println("tokens that fit, replicated:", KVCapacity(gpu.HBM, full.WeightBytes(), per))
	fmt.Println("tokens that fit, shared:", KVCapacity(gpu.HBM, shared.WeightBytes(0), per))
	// Output:
	// KV per token: 128KiB
	// weights, replicated: 15684104KiB
	// weights, shared by 8: 4608104KiB
	// tokens that fit, replicated: 532827
	// tokens that fit, shared: 619359
}
