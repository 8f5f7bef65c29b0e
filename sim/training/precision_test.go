package training

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// llama8B is llama3-8b on one node of 8 GPUs of the given preset, in the
// given precision: tp 2 × pp 4 with 1F1B over 8 microbatches.
func llama8B(t *testing.T, gpu, precision string) scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte("model: {preset: llama3-8b}\ncluster: {gpu: " + gpu + ", nodes: 1, gpus_per_node: 8}\n" +
		"parallel: {dp: 1, tp: 2, pp: 4, microbatches: 8, schedule: 1f1b}\ntraining: {precision: " + precision + "}\n"))
	if err != nil {
		t.Fatalf("%s %s: %v", gpu, precision, err)
	}
	return s
}

// TestFP8RunsOnFP8GPUs: every preset with FP8 tensor cores runs fp8, and
// faster than bf16 (the linear GEMMs go at twice the rate), while MFU
// stays relative to the bf16 peak.
func TestFP8RunsOnFP8GPUs(t *testing.T) {
	for _, gpu := range []string{"h100-sxm", "h200", "h800", "b200", "mi300x", "gb200", "mi325x"} {
		bf := mustSimulate(t, llama8B(t, gpu, "bf16"))
		f8 := mustSimulate(t, llama8B(t, gpu, "fp8"))
		if !(f8.End < bf.End) {
			t.Errorf("%s: fp8 iteration %v, bf16 %v; want fp8 faster", gpu, f8.End, bf.End)
		}
		h, _ := hw.LookupGPU(gpu)
		if f8.Training.PeakFLOPS != h.PeakFLOPS {
			t.Errorf("%s: fp8 run's MFU peak %v, want the bf16 peak %v", gpu, f8.Training.PeakFLOPS, h.PeakFLOPS)
		}
	}
}

// TestFP8RejectedWithoutFP8 names training.precision, the GPU and what it
// allows, for a uniform cluster and for a mixed one.
func TestFP8RejectedWithoutFP8(t *testing.T) {
	for _, c := range []struct{ cluster, want string }{
		{"{gpu: a100-sxm-80gb, nodes: 1, gpus_per_node: 8}", "cluster.gpu is a100-sxm-80gb"},
		{"{gpu: v100-sxm, nodes: 1, gpus_per_node: 8}", "cluster.gpu is v100-sxm"},
		{"{gpu: t4, nodes: 2, gpus_per_node: 4}", "cluster.gpu is t4"},
		{"{gpu: a10g, nodes: 2, gpus_per_node: 4}", "cluster.gpu is a10g"},
		{"{gpu: h100-sxm, nodes: 2, gpus_per_node: 4, node_gpus: [h100-sxm, a100-sxm-80gb]}", "cluster.node_gpus (node 1) is a100-sxm-80gb"},
	} {
		_, err := scenario.Parse([]byte("model: {preset: llama3-8b}\ncluster: " + c.cluster +
			"\nparallel: {dp: 8, microbatches: 2}\ntraining: {precision: fp8}\n"))
		for _, want := range []string{"training.precision", c.want, "no FP8 tensor cores", "allowed on it: bf16, fp16"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %v; want it to say %q", c.cluster, err, want)
			}
		}
	}
	_, err := scenario.Parse([]byte("model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\ntraining: {precision: fp4}\n"))
	if err == nil || !strings.Contains(err.Error(), "training.precision") || !strings.Contains(err.Error(), "bf16, fp16, fp8") {
		t.Errorf("fp4: error %v; want training.precision with the allowed list", err)
	}
	// A mixed cluster whose every node has FP8 runs.
	if _, err := scenario.Parse([]byte("model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4, node_gpus: [h100-sxm, h200]}\n" +
		"parallel: {dp: 8, microbatches: 2}\ntraining: {precision: fp8}\n")); err != nil {
		t.Errorf("h100-sxm + h200 in fp8: %v", err)
	}
}

// pricedStages prices the scenario's model stages (costs.stageCosts with
// no communication) and returns them with the costs.
func pricedStages(t *testing.T, s scenario.Scenario) costs {
	t.Helper()
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newCosts(s, gpu)
	if err != nil {
		t.Fatal(err)
	}
	c.size(s.Parallel.PP)
	if err := c.splitLayers(); err != nil {
		t.Fatal(err)
	}
	c.stageCosts(0, 0, 0, activations{})
	return c
}

// TestFP8LinearGEMMTimeRatio is the acceptance check of fp8: on every
// FP8 preset the linear GEMMs' compute time in bf16 over fp8 is the
// presets' PeakFP8/PeakFLOPS, the attention core's time does not change,
// and a stage's fp8 F, B and W times are its bf16 ones less exactly what
// its linear FLOPs save (so the head and attention stay bf16).
func TestFP8LinearGEMMTimeRatio(t *testing.T) {
	for _, gpu := range []string{"h100-sxm", "h100-pcie", "h200", "h800", "h20", "b200", "gb200", "mi300x", "mi325x"} {
		h, _ := hw.LookupGPU(gpu)
		bf := pricedStages(t, llama8B(t, gpu, "bf16"))
		f8 := pricedStages(t, llama8B(t, gpu, "fp8"))
		m, p := f8.model, f8.par
		layer := workload.LayerFLOPs(m, p.MicroBatchSize, p.TP, p.CP, workload.RecomputeNone)
		lin := layer.Linear().Forward
		tb, tf := bf.time(lin, lin), f8.time(lin, lin)
		if got, want := float64(tb)/float64(tf), h.PeakFP8/h.PeakFLOPS; math.Abs(got-want) > 1e-6*want {
			t.Errorf("%s: linear GEMM time bf16/fp8 = %.6f, want PeakFP8/PeakFLOPS = %.6f", gpu, got, want)
		}
		if a := layer.Attention.Forward; bf.time(a, 0) != f8.time(a, 0) {
			t.Errorf("%s: attention core %v in bf16, %v in fp8; want unchanged", gpu, bf.time(a, 0), f8.time(a, 0))
		}
		eff := f8.eff
		for k, layers := range f8.layers {
			sl := workload.StageLinearFLOPs(m, layers, p.MicroBatchSize, p.TP, p.CP, workload.RecomputeNone)
			for op, flops := range [3]float64{sl.Forward, sl.BackwardInput, sl.BackwardWeight} {
				saved := flops/(h.PeakFLOPS*eff) - flops/(h.PeakFP8*eff)
				got := (bf.opTime[op][k] - f8.opTime[op][k]).Seconds()
				if math.Abs(got-saved) > 2e-9 {
					t.Errorf("%s stage %d op %d: fp8 saves %.9f s, its linear FLOPs %.9f s", gpu, k, op, got, saved)
				}
			}
		}
	}
}

// TestFP8Llama8BOnH100 is the end-to-end check: an fp8 iteration of
// llama3-8b on 8 H100s is faster than bf16, but by less than the peaks'
// ratio of 2, since attention, the head and communication stay as they
// were.
func TestFP8Llama8BOnH100(t *testing.T) {
	for _, seq := range []int{2048, 8192} {
		var end [2]units.Time
		var mfu [2]float64
		for i, prec := range []string{"bf16", "fp8"} {
			s := llama8B(t, "h100-sxm", prec)
			s.Model.SeqLen = seq
			tl := mustSimulate(t, s)
			end[i], mfu[i] = tl.End, tl.Summarize().MFU
		}
		h, _ := hw.LookupGPU("h100-sxm")
		speedup := end[0].Seconds() / end[1].Seconds()
		t.Logf("llama3-8b seq %d, 8× h100-sxm tp 2 pp 4: bf16 %v (MFU %.1f%%), fp8 %v (MFU %.1f%% of the bf16 peak), speedup %.3f×",
			seq, end[0], 100*mfu[0], end[1], 100*mfu[1], speedup)
		if !(speedup > 1 && speedup < h.PeakFP8/h.PeakFLOPS) {
			t.Errorf("seq %d: fp8 speedup %.3f×, want in (1, %.3f)", seq, speedup, h.PeakFP8/h.PeakFLOPS)
		}
		if r := mfu[1] / mfu[0]; math.Abs(r-speedup) > 1e-6*speedup {
			t.Errorf("seq %d: MFU ratio %.6f, want the speedup %.6f (MFU is against the bf16 peak)", seq, r, speedup)
		}
	}
}
