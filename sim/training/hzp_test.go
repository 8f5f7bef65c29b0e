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

// hzpYAML is Llama 3 8B (4 layers, 1,024 tokens) on nodes servers of
// perNode H100s, data parallel over all of them, with ZeRO stage zero
// sharded within groups of g (0: the whole group) and m microbatches.
func hzpYAML(nodes, perNode, zero, g, m int) string {
	return fmt.Sprintf("model: {preset: llama3-8b, layers: 4, seq_len: 1024}\n"+
		"cluster: {gpu: h100-sxm, nodes: %d, gpus_per_node: %d, intra: nvlink4, inter: ib-ndr}\n"+
		"parallel: {dp: %d, zero: %d, zero_group: %d, microbatches: %d, micro_batch_size: 1}\n", nodes, perNode, nodes*perNode, zero, g, m)
}

// TestHierarchicalZeRO holds hierarchical ZeRO's model states per GPU and
// the bytes its messages send between servers (every message simulated)
// to their closed forms, written here from the ZeRO paper's counts and the
// ring's: states (2 + 2 + 12)Ψ with each sharded term over g; between
// servers, a ring reduce-scatter or all-gather of S over k ranks on c > 1
// servers sends c(k−1)S/k, an all-reduce twice that.
func TestHierarchicalZeRO(t *testing.T) {
	for _, c := range []struct{ nodes, perNode, zero, g, m int }{
		{2, 8, 3, 8, 2},  // a group a server: the demo's plan
		{2, 8, 3, 16, 2}, // g = dp: flat ZeRO-3
		{2, 4, 3, 2, 3},  // two groups a server
		{4, 2, 3, 4, 2},  // a group of two servers
		{2, 4, 1, 4, 2},  // ZeRO-1
		{2, 4, 2, 4, 1},  // ZeRO-2
		{4, 2, 2, 1, 2},  // g = 1: replicated, sums across all
		{2, 4, 1, 1, 2},  // g = 1, ZeRO-1: no gather after the step
	} {
		name := fmt.Sprintf("%dx%d ZeRO-%d g=%d m=%d", c.nodes, c.perNode, c.zero, c.g, c.m)
		parts, tl, _ := strategytest.Caption(t, Strategy{}, hzpYAML(c.nodes, c.perNode, c.zero, c.g, c.m))
		mdl, _ := workload.LookupModel("llama3-8b")
		mdl.Layers, mdl.SeqLen = 4, 1024
		psi, g, dp := float64(workload.Params(mdl).Total()), float64(c.g), float64(c.nodes*c.perNode)
		opt, grads, params := 12*psi/g, 2*psi, 2*psi
		if c.zero >= 2 {
			grads /= g
		}
		if c.zero == 3 {
			params /= g
		}
		mem := tl.Memory[0]
		if got, want := float64(mem.Parameters+mem.Gradients+mem.OptimizerStates), opt+grads+params; math.Abs(got-want) > 1 {
			t.Errorf("%s: model states %.0f B, want %.0f", name, got, want)
		}
		// Between servers: the gathers (2m−1 for ZeRO-3, 1 after the
		// step for ZeRO-1/2) and the reduce-scatter run within each of
		// the dp/g groups; the shards' all-reduce across the groups.
		R, S := dp/g, 2*psi
		gathers := 1.0
		if c.zero == 3 {
			gathers = float64(2*c.m - 1)
		}
		ring := func(k, servers float64) float64 { // RS or AG of S over k ranks
			if servers < 2 || k < 2 {
				return 0
			}
			return servers * (k - 1) * S / k
		}
		inGroup := math.Max(1, g/float64(c.perNode))
		across := R // one rank of each group, each on its own server…
		if c.g < c.perNode {
			across = R * g / float64(c.perNode) // …or perNode/g groups a server
		}
		want := R*(gathers+1)*ring(g, inGroup) + g*2*ring(R, across)/g
		var got float64
		for i := range tl.Transfers.Len() {
			if x := tl.Transfers.At(i); tl.GPUs[x.Src].Node != tl.GPUs[x.Dst].Node {
				got += float64(x.Bytes)
			}
		}
		t.Logf("%s: %.4g B between servers, closed form %.4g", name, got, want)
		if math.Abs(got-want) > 1e-6*want+64 {
			t.Errorf("%s: %.0f B between servers, want %.0f (%+.3g%%)", name, got, want, 100*(got/want-1))
		}
		gathersRun := 0
		for _, col := range tl.Collectives {
			if col.Purpose == "zero" {
				gathersRun++
			}
		}
		if want := int(R * gathers); c.g < 2 && gathersRun != 0 || c.g >= 2 && gathersRun != want {
			t.Errorf("%s: %d parameter gathers, want %d (%g groups × %g, none in groups of one)", name, gathersRun, want, R, gathers)
		}
		strategytest.Checked(t, parts, "hierarchical ZeRO model states")
		strategytest.Checked(t, parts, "hierarchical ZeRO cross-server bytes")
	}
}

// TestZeROGroupOfAllIsZeRO holds zero_group = dp to today's ZeRO: the same
// timeline, byte for byte, as zero_group 0.
func TestZeROGroupOfAllIsZeRO(t *testing.T) {
	for _, zero := range []int{1, 2, 3} {
		var traces [2]bytes.Buffer
		for i, g := range []int{0, 16} {
			s, err := scenario.Parse([]byte(hzpYAML(2, 8, zero, g, 2)))
			if err != nil {
				t.Fatal(err)
			}
			tl := strategytest.MustRun(t, Strategy{}.Simulate, s)
			if err := timeline.WriteJSON(tl, &traces[i]); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
			t.Errorf("ZeRO-%d: zero_group 16 (= dp) differs from zero_group 0", zero)
		}
	}
}

// TestZeROGroupErrors checks that a zero_group that is not a divisor of
// dp, or is set without a ZeRO stage, is refused naming the field and
// what it allows.
func TestZeROGroupErrors(t *testing.T) {
	for _, c := range []struct {
		zero, g int
		want    string
	}{
		{3, 3, "is 3 with parallel.zero 3 and dp 16; allowed 0 (shard over all of dp) or, with zero 1–3, a divisor of dp: 1, 2, 4, 8, 16"},
		{3, -2, "allowed 0"},
		{3, 32, "a divisor of dp: 1, 2, 4, 8, 16"},
		{0, 8, "with parallel.zero 0"},
	} {
		_, err := scenario.Parse([]byte(hzpYAML(2, 8, c.zero, c.g, 2)))
		if err == nil || !strings.Contains(err.Error(), "parallel.zero_group") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("zero %d, zero_group %d: error %v, want parallel.zero_group … %q", c.zero, c.g, err, c.want)
		}
	}
}
