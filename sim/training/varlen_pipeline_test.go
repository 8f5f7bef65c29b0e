package training

import (
	"bytes"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// TestAttentionFLOPsGrowWithTheSquare is the closed form behind
// per-microbatch workload variability: a layer's FLOPs are a linear part
// (the GEMMs, ∝ L) and attention's score and value products (∝ L²), so at
// twice the length the linear part doubles and the rest quadruples
// (Hydraulis, Wang et al. 2024; Narayanan et al. 2021's FLOP count).
func TestAttentionFLOPsGrowWithTheSquare(t *testing.T) {
	m, err := scenario.Model{Preset: "gpt3-1.3b"}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	st := workload.Stage{From: 0, Layers: 6}
	at := func(l int) (lin, quad float64) {
		m.SeqLen = l
		f := workload.StageFLOPsOf(m, st, 1, 1, 1, workload.RecomputeNone)
		li := workload.StageLinearFLOPsOf(m, st, 1, 1, 1, workload.RecomputeNone)
		return li.Forward, f.Forward - li.Forward
	}
	lin1, quad1 := at(1024)
	lin2, quad2 := at(2048)
	if r := lin2 / lin1; r < 1.999999 || r > 2.000001 {
		t.Errorf("linear FLOPs at 2L / at L = %.6f; want 2", r)
	}
	if r := quad2 / quad1; r < 3.999999 || r > 4.000001 {
		t.Errorf("attention FLOPs at 2L / at L = %.6f; want 4", r)
	}
}

// TestPipelineStagesFollowEachMicrobatchLength: inside one pipeline
// (pp 4, no data parallelism) each microbatch draws its own sequence
// length, and every stage prices its forward at that length: on every
// stage the forwards are ordered as the lengths, and the longest over
// the shortest lies between the lengths' ratio (all linear) and its
// square (all attention). Same seed, byte-identical trace.
func TestPipelineStagesFollowEachMicrobatchLength(t *testing.T) {
	s := pipelineRun("1f1b", 1, 8)
	s.Data = scenario.Data{SeqDist: "lognormal", SeqCV: 1}
	lengths := seqLengths(s, 0, 1)[0]
	var traces [2]bytes.Buffer
	var tl *timeline.Timeline
	for i := range traces {
		tl = mustSimulate(t, s)
		if err := tl.WriteChromeTrace(&traces[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Error("two runs of the same scenario and seed gave different traces")
	}
	lo, hi := 0, 0
	for i, l := range lengths {
		if l < lengths[lo] {
			lo = i
		}
		if l > lengths[hi] {
			hi = i
		}
	}
	ratio := float64(lengths[hi]) / float64(lengths[lo])
	for stage := range 4 {
		fwd := map[int]float64{}
		for _, sp := range tl.Spans {
			if sp.Kind == timeline.Forward && sp.Stage == stage {
				fwd[sp.Microbatch] += float64(sp.End - sp.Start)
			}
		}
		if len(fwd) != len(lengths) {
			t.Fatalf("stage %d: forwards of %d microbatches; want %d", stage, len(fwd), len(lengths))
		}
		for a := range lengths {
			for b := range lengths {
				if lengths[a] < lengths[b] && fwd[a] > fwd[b] {
					t.Errorf("stage %d: microbatch %d (%d tokens) takes %.0f ns, longer than %d (%d tokens, %.0f ns)",
						stage, a, lengths[a], fwd[a], b, lengths[b], fwd[b])
				}
			}
		}
		if r := fwd[hi] / fwd[lo]; r < ratio*0.9 || r > ratio*ratio*1.1 {
			t.Errorf("stage %d: longest/shortest forward %.2f; want within [%.2f, %.2f] (L ratio, its square)", stage, r, ratio, ratio*ratio)
		}
		t.Logf("stage %d: lengths %v; forward longest/shortest %.2f (L ratio %.2f)", stage, lengths, fwd[hi]/fwd[lo], ratio)
	}
}
