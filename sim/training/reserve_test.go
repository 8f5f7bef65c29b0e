//go:build !js

package training

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// TestReserveInBreakdown runs small plans and finds the reserve in every
// GPU's memory and summary breakdown at its closed form: the GPU type's
// context and cuBLAS workspaces, 16 NCCL channels of one ring connection
// (4 MiB Simple + 4,915,200 B LL128 + 524,288 B LL) per communicator, and
// 22 MiB of allocator segments per stream (the compute stream and one per
// communicator).
func TestReserveInBreakdown(t *testing.T) {
	const perComm = 16 * (4<<20 + 4915200 + 524288)
	for _, c := range []struct {
		name, yaml string
		comms      int
		context    units.Bytes
		cublas     units.Bytes
	}{
		{"llama3-8b dp 2 tp 4 pp 2 on H100", "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\n" +
			"parallel: {dp: 2, tp: 4, pp: 2, microbatches: 8, sequence_parallel: true}\n", 3, 400 * units.MiB, 64 * units.MiB},
		{"gpt3-1.3b dp 2 on A100", "model: {preset: gpt3-1.3b, seq_len: 1024}\ncluster: {gpu: a100-sxm-80gb, nodes: 1, gpus_per_node: 2}\n" +
			"parallel: {dp: 2, microbatches: 1}\n", 1, 400 * units.MiB, 12*units.MiB + 128*units.KiB},
		{"gpt3-1.3b on one B200", "model: {preset: gpt3-1.3b, seq_len: 1024}\ncluster: {gpu: b200, nodes: 1, gpus_per_node: 1}\n" +
			"parallel: {microbatches: 1}\n", 0, 700 * units.MiB, 64 * units.MiB},
	} {
		s, err := scenario.Parse([]byte("fidelity: analytic\n" + c.yaml))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := timeline.Reserve{Context: c.context, Workspaces: c.cublas, Communicators: units.Bytes(c.comms * perComm),
			Allocator: units.Bytes(1+c.comms) * 22 * units.MiB}
		sum := tl.Summarize()
		for i, m := range tl.Memory {
			if m.Reserve != want {
				t.Errorf("%s: GPU %d reserve %+v, want %+v", c.name, i, m.Reserve, want)
			}
			if got := sum.GPUs[i].Memory["reserve"]; got != want.Total() {
				t.Errorf("%s: GPU %d breakdown reserve %v, want %v", c.name, i, got, want.Total())
			}
		}
		est, err := NewEstimator().Estimate(s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var peak units.Bytes
		for _, m := range tl.Memory {
			peak = max(peak, m.Peak)
		}
		if est.PeakMemory != peak {
			t.Errorf("%s: estimated peak %v, simulated %v; want them equal with the reserve in both", c.name, est.PeakMemory, peak)
		}
	}
}

// TestNearOOMCaption runs llama3-8b at 8K with ZeRO-1 on eight H100s,
// whose peak lands at 99.8% of HBM (under the 4K sequence it is 76%, and
// with dp 4 × tp 2 without ZeRO 105%): the summary marks every GPU near
// OOM and warns, and the caption says so beside the peak.
func TestNearOOMCaption(t *testing.T) {
	parts, _, sum := strategytest.Caption(t, Strategy{}, "fidelity: analytic\nmodel: {preset: llama3-8b}\n"+
		"cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8, zero: 1, microbatches: 1}\n")
	for i, g := range sum.GPUs {
		if !g.NearOOM || g.OOM {
			t.Errorf("GPU %d: peak %v, near OOM %v, OOM %v; want near OOM only", i, g.PeakMemory, g.NearOOM, g.OOM)
		}
	}
	if len(sum.Warnings) == 0 || !strings.Contains(sum.Warnings[len(sum.Warnings)-1], "above 90% of HBM on 8 of 8 GPUs") {
		t.Errorf("warnings %q: want the 90%% warning last", sum.Warnings)
	}
	if near := strategytest.Figure(t, parts, "over 90% of HBM on {} of {} GPUs"); near.Values[0].V != 8 || near.Values[1].V != 8 {
		t.Errorf("over 90%% of HBM on %v of %v GPUs, want 8 of 8", near.Values[0].V, near.Values[1].V)
	}
}
