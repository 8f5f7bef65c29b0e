package training

import (
	"math"
	"testing"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// oneGPU is llama3-8b shortened to 4 layers on one H100 with one
// microbatch: no communication, so the passes are the operator lists'.
func oneGPU() scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.Fidelity = Name, "analytic"
	s.Model = scenario.Model{Preset: "llama3-8b", Layers: 4}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: 1}
	s.Parallel.Microbatches = 1
	return s
}

// listSeconds prices l independently of the simulator: each kernel at
// max(its GEMM time without launch or FLOPs / (peak × operators.FlashEfficiency),
// bytes / (HBM × the fitted streaming fraction)), plus one launch.
func listSeconds(t *testing.T, l operators.List, gpu hw.GPU) float64 {
	t.Helper()
	gm, err := gemm.For(gpu)
	if err != nil {
		t.Fatal(err)
	}
	params, _ := gemm.Lookup(gpu.Name)
	var sum float64
	for _, op := range l {
		var compute float64
		switch op.Kind {
		case operators.KindCollective:
			continue
		case operators.KindGEMM:
			g := op.GEMM
			tm, _ := gm.Time(gemm.Shape{Batch: max(g.Batch, 1), M: g.M, N: g.N, K: g.K}, gemm.BF16)
			compute = tm - gm.Launch()
		case operators.KindAttention:
			compute = op.FLOPs / (gpu.PeakFLOPS * operators.FlashEfficiency(op.Attention, gm.Ceiling(gemm.BF16)/gm.Peak(gemm.BF16)))
		}
		sum += max(compute, op.Bytes()/(float64(gpu.HBMBandwidth)*params.HBMEfficiency)) + gm.Launch()
	}
	return sum
}

// TestComputeIsTheOperatorLists: a lone GPU's forward and backward time
// is four layers' operator lists plus the embedding's and the head's.
func TestComputeIsTheOperatorLists(t *testing.T) {
	s := oneGPU()
	tl := mustSimulate(t, s)
	gpu, _ := hw.LookupGPU(s.Cluster.GPU)
	m, _ := s.Model.Resolve()
	cfg := operators.Config{Model: m, MicroBatch: 1, TP: 1, CP: 1, Attention: operators.Flash, Causal: true,
		Precision: operators.BF16, Recompute: workload.RecomputeNone}
	var want float64
	for i, build := range []func(operators.Config) (operators.List, error){operators.Layer, operators.Embedding, operators.Head} {
		l, err := build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		n := 1.0
		if i == 0 {
			n = float64(m.Layers)
		}
		want += n * listSeconds(t, l, gpu)
	}
	var got units.Time
	for _, sp := range tl.Spans {
		if sp.GPU == 0 && (sp.Kind == timeline.Forward || sp.Kind == timeline.Backward || sp.Kind == timeline.BackwardWeight) {
			got += sp.End - sp.Start
		}
	}
	if rel := math.Abs(got.Seconds()-want) / want; rel > 1e-4 {
		t.Errorf("passes %v, operator lists %.6gs: %.3g%% apart", got, want, 100*rel)
	}
}

// TestUnfusedGradAccumulationAddsItsKernels: unfused accumulation costs
// exactly its add kernels (one per weight matrix and microbatch, 10 bytes
// of HBM traffic per weight) less the fp32 read and write the fused wgrad
// GEMMs no longer do.
func TestUnfusedGradAccumulationAddsItsKernels(t *testing.T) {
	s := oneGPU()
	fused := mustSimulate(t, s).End
	s.Training.GradAccumulation = "unfused"
	unfused := mustSimulate(t, s).End
	gpu, _ := hw.LookupGPU(s.Cluster.GPU)
	m, _ := s.Model.Resolve()
	cfg := operators.Config{Model: m, MicroBatch: 1, TP: 1, CP: 1, Attention: operators.Flash, Causal: true,
		Precision: operators.BF16, Recompute: workload.RecomputeNone}
	delta := 0.0
	for i, build := range []func(operators.Config) (operators.List, error){operators.Layer, operators.Head} {
		a, _ := build(cfg)
		cfg.UnfusedGradAccumulation = true
		b, _ := build(cfg)
		cfg.UnfusedGradAccumulation = false
		n := 1.0
		if i == 0 {
			n = float64(m.Layers)
		}
		delta += n * (listSeconds(t, b, gpu) - listSeconds(t, a, gpu))
	}
	if delta <= 0 {
		t.Fatalf("unfused accumulation adds %vs, want more than nothing", delta)
	}
	if got := (unfused - fused).Seconds(); math.Abs(got-delta)/delta > 1e-3 {
		t.Errorf("unfused − fused = %.6gs, want its kernels' %.6gs", got, delta)
	}
}

// TestFullRecomputeRerunsTPCollectives: with full recomputation every
// layer's forward all-reduces run twice (Korthikanti et al. 2022, §5), so
// the blocking tensor-parallel time is 6/4 of no recomputation's: 2 per
// layer forward, 2 backward, 2 in the recomputed forward.
func TestFullRecomputeRerunsTPCollectives(t *testing.T) {
	s := oneGPU()
	s.Cluster.GPUsPerNode = 2
	s.Parallel.TP = 2
	exposed := func(r string) float64 {
		s.Parallel.Recompute = r
		return mustSimulate(t, s).Summarize().ExposedBy["tp"]
	}
	none, full := exposed("none"), exposed("full")
	if r := full / none; math.Abs(r-1.5) > 1e-3 {
		t.Errorf("tp exposed: full recompute %.6gs, none %.6gs: ratio %.4g, want 1.5", full, none, r)
	}
}

// TestTPCommOverlap: overlapped, a pass's tensor-parallel time is
// interference × max(GEMMs, collectives) − GEMMs, so the run is never
// slower than blocking when the collectives are shorter than the GEMMs,
// and exposes less than the blocking collectives.
func TestTPCommOverlap(t *testing.T) {
	s := oneGPU()
	s.Model = scenario.Model{Preset: "llama3-70b", Layers: 8}
	s.Cluster.GPUsPerNode = 8
	s.Parallel.TP, s.Parallel.SequenceParallel = 8, true
	blocking := mustSimulate(t, s)
	s.Parallel.TPCommOverlap = true
	overlapped := mustSimulate(t, s)
	b, o := blocking.Summarize().ExposedBy["tp"], overlapped.Summarize().ExposedBy["tp"]
	if !(o < b) || overlapped.End >= blocking.End {
		t.Errorf("tp exposed overlapped %.6gs, blocking %.6gs; iteration %v vs %v: want both lower", o, b, overlapped.End, blocking.End)
	}
	if f := commInterference(132); math.Abs(f-132.0/116) > 1e-12 {
		t.Errorf("interference on 132 SMs %v, want 132/116", f)
	}
}
