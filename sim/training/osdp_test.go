//go:build !js

package training

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// osdpYAML is Llama 3 8B (8 layers, 1,024 tokens) on nodes servers of
// perNode H100s, data parallel over all of them, ZeRO-3 on the first k
// layers (0: all) with m microbatches.
func osdpYAML(nodes, perNode, k, m int) string {
	return fmt.Sprintf("model: {preset: llama3-8b, layers: 8, seq_len: 1024}\n"+
		"cluster: {gpu: h100-sxm, nodes: %d, gpus_per_node: %d, intra: nvlink4, inter: ib-ndr}\n"+
		"parallel: {dp: %d, zero: 3, zero_layers: %d, microbatches: %d, micro_batch_size: 1}\n", nodes, perNode, nodes*perNode, k, m)
}

// TestPerLayerSharding holds per-layer sharding's model states to the sum
// over the layers of each layer's ZeRO accounting, written here layer by
// layer from Rajbhandari et al. 2020 (ZeRO-3: 16 bytes a parameter over
// N_d; ZeRO-2: 2 whole + 14 over N_d), and the bytes its parameter gathers
// move to the ring's (dp−1)·S per all-gather of S: 2m−1 gathers of the
// sharded layers' 2Ψ_sh and one after the step of the whole layers' 2Ψ_wh.
func TestPerLayerSharding(t *testing.T) {
	for _, c := range []struct{ nodes, perNode, k, m int }{
		{1, 8, 2, 2}, {1, 8, 6, 3}, {2, 4, 1, 2}, {1, 4, 7, 1}, {1, 4, 8, 2},
	} {
		name := fmt.Sprintf("%dx%d k=%d m=%d", c.nodes, c.perNode, c.k, c.m)
		parts, tl, _ := strategytest.Caption(t, Strategy{}, osdpYAML(c.nodes, c.perNode, c.k, c.m))
		mdl, _ := workload.LookupModel("llama3-8b")
		mdl.Layers, mdl.SeqLen = 8, 1024
		pc := workload.Params(mdl)
		nd := float64(c.nodes * c.perNode)
		want := 16 * float64(pc.Embedding+pc.FinalNorm+pc.Head) / nd // embedding and head: ZeRO-3
		var whole float64
		for l := 0; l < mdl.Layers; l++ {
			if l < c.k {
				want += 16 * float64(pc.PerLayer) / nd
			} else {
				want += 2*float64(pc.PerLayer) + 14*float64(pc.PerLayer)/nd
				whole += float64(pc.PerLayer)
			}
		}
		mem := tl.Memory[0]
		if got := float64(mem.Parameters + mem.Gradients + mem.OptimizerStates); math.Abs(got-want) > 8 {
			t.Errorf("%s: model states %.0f B, want %.0f", name, got, want)
		}
		sharded := float64(pc.Total()) - whole
		wantGather := (nd - 1) * (float64(2*c.m-1)*2*sharded + 2*whole)
		var got float64
		for _, col := range tl.Collectives {
			if col.Purpose == "zero" {
				got += (nd - 1) * float64(col.Bytes)
			}
		}
		if math.Abs(got-wantGather) > 1e-6*wantGather {
			t.Errorf("%s: parameter gathers move %.4g B, want %.4g", name, got, wantGather)
		}
		if c.k < mdl.Layers {
			strategytest.Checked(t, parts, "per-layer sharding model states")
		}
	}
}

// TestZeroLayersOfAllIsZeRO3 holds zero_layers = L to plain ZeRO-3: the
// same timeline, byte for byte, as zero_layers 0.
func TestZeroLayersOfAllIsZeRO3(t *testing.T) {
	var traces [2]bytes.Buffer
	for i, k := range []int{0, 8} {
		s, err := scenario.Parse([]byte(osdpYAML(1, 4, k, 2)))
		if err != nil {
			t.Fatal(err)
		}
		tl := strategytest.MustRun(t, Strategy{}.Simulate, s)
		if err := timeline.WriteJSON(tl, &traces[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Errorf("zero_layers 8 (= model.layers) differs from zero_layers 0")
	}
}

// TestZeroLayersErrors checks that a bad zero_layers is refused naming the
// field and what it allows.
func TestZeroLayersErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{osdpYAML(1, 4, 9, 2), "allowed 0 (shard every layer) or 1..8"},
		{osdpYAML(1, 4, -1, 2), "allowed 0 (shard every layer) or 1..8"},
		{strings.Replace(osdpYAML(1, 4, 2, 2), "zero: 3", "zero: 2", 1), "needs parallel.zero: 3"},
		{"model: {synthetic: {forward: 1ms, backward: 2ms}}\ncluster: {gpus: 4}\nparallel: {dp: 4, zero: 3, zero_layers: 2, microbatches: 2}\n", "of a real model"},
	} {
		_, err := scenario.Parse([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), "parallel.zero_layers") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want parallel.zero_layers … %q", c.yaml, err, c.want)
		}
	}
}
