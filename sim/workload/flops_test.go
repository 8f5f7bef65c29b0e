package workload

import (
	"math"
	"testing"
)

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// tiny is a GPT-style model small enough to count by hand.
var tiny = Model{
	Name: "tiny", Layers: 2, Hidden: 64, Heads: 4, FFN: FFNGeLU, Norm: NormLayer, Bias: true,
	Position: PositionLearned, TiedEmbeddings: true, Vocab: 1000, SeqLen: 128,
}

// TestLayerFLOPsByHand: b = 2, s = 128, h = 64, so T = 256 tokens:
// QKV 2·256·64·192 = 6,291,456; scores 4·256·128·64 = 8,388,608;
// projection 2·256·64·64 = 2,097,152; MLP 2·256·64·256·2 = 16,777,216.
func TestLayerFLOPsByHand(t *testing.T) {
	ops := LayerFLOPs(tiny, 2, 1, 1, RecomputeNone)
	tests := []struct {
		part    string
		got     OpFLOPs
		f, b, w float64
	}{
		{"qkv", ops.QKV, 6291456, 6291456, 6291456},
		{"attention", ops.Attention, 8388608, 2 * 8388608, 0},
		{"projection", ops.Projection, 2097152, 2097152, 2097152},
		{"mlp", ops.MLP, 16777216, 16777216, 16777216},
		{"router", ops.Router, 0, 0, 0},
	}
	for _, tc := range tests {
		want := OpFLOPs{Forward: tc.f, BackwardInput: tc.b, BackwardWeight: tc.w}
		if tc.got != want {
			t.Errorf("%s: got %+v, want %+v", tc.part, tc.got, want)
		}
	}
	if got, want := HeadFLOPs(tiny, 2, 1, 1), (OpFLOPs{2 * 256 * 64 * 1000, 2 * 256 * 64 * 1000, 2 * 256 * 64 * 1000, 0}); got != want {
		t.Errorf("head: got %+v, want %+v", got, want)
	}
}

// TestBackwardIsTwiceForward checks the split for every preset and part:
// B + W = 2F, weight matmuls B = W, the attention core W = 0.
func TestBackwardIsTwiceForward(t *testing.T) {
	for _, m := range Models() {
		ops := LayerFLOPs(m, 1, 1, 1, RecomputeNone)
		for name, p := range map[string]OpFLOPs{"qkv": ops.QKV, "attention": ops.Attention, "projection": ops.Projection, "mlp": ops.MLP, "router": ops.Router, "head": HeadFLOPs(m, 1, 1, 1)} {
			if !near(p.BackwardInput+p.BackwardWeight, 2*p.Forward, 1e-15) {
				t.Errorf("%s %s: B + W = %g, want 2F = %g", m.Name, name, p.BackwardInput+p.BackwardWeight, 2*p.Forward)
			}
			if name == "attention" && p.BackwardWeight != 0 {
				t.Errorf("%s attention: W = %g, want 0 (no weights)", m.Name, p.BackwardWeight)
			}
			if name != "attention" && p.BackwardInput != p.BackwardWeight {
				t.Errorf("%s %s: B = %g, W = %g, want equal", m.Name, name, p.BackwardInput, p.BackwardWeight)
			}
		}
	}
}

// TestNarayananFLOPs is the acceptance check: for GPT-style models, the
// per-layer F + B + W summed over layers plus the head equals
// 72·B·s·l·h²·(1 + s/(6h) + V/(12lh)), and with full recomputation the
// hardware FLOPs equal 96·B·s·l·h²·(1 + s/(6h) + V/(16lh)).
func TestNarayananFLOPs(t *testing.T) {
	const batch, micro = 64, 4
	checked := 0
	for _, m := range append(Models(), tiny) {
		if !m.IsGPTStyle() {
			continue
		}
		checked++
		var model, hardware float64
		for range batch / micro {
			for range m.Layers {
				model += LayerFLOPs(m, micro, 1, 1, RecomputeNone).Total().Model()
				hardware += LayerFLOPs(m, micro, 1, 1, RecomputeFull).Total().Hardware()
			}
			model += HeadFLOPs(m, micro, 1, 1).Model()
			hardware += HeadFLOPs(m, micro, 1, 1).Hardware()
		}
		want := NarayananModelFLOPs(batch, m.SeqLen, m.Layers, m.Hidden, m.Vocab)
		if !near(model, want, 1e-12) {
			t.Errorf("%s: summed model FLOPs %.6e, closed form %.6e", m.Name, model, want)
		}
		wantHW := NarayananRecomputeFLOPs(batch, m.SeqLen, m.Layers, m.Hidden, m.Vocab)
		if !near(hardware, wantHW, 1e-12) {
			t.Errorf("%s: summed recompute FLOPs %.6e, closed form %.6e", m.Name, hardware, wantHW)
		}
		if got := IterationFLOPs(m, batch, RecomputeFull); !near(got.Model(), want, 1e-12) || !near(got.Hardware(), wantHW, 1e-12) {
			t.Errorf("%s: IterationFLOPs %+v, want model %.6e, hardware %.6e", m.Name, got, want, wantHW)
		}
	}
	if checked < 12 {
		t.Errorf("only %d GPT-style models checked", checked)
	}
}

// TestFLOPsPerTokenFromParams checks the GQA, SwiGLU and MoE paths against
// the rule that a token costs 6 FLOPs per weight it multiplies by, forward
// and backward, plus 12·l·h·s for attention (Kaplan et al. 2020; PaLM,
// Chowdhery et al. 2022, App. B): weights here are the active parameters
// without the embedding table (a lookup) and the norm weights.
func TestFLOPsPerTokenFromParams(t *testing.T) {
	for _, name := range []string{"llama3-8b", "llama3-70b", "llama3-405b", "mixtral-8x7b"} {
		m, _ := LookupModel(name)
		l, h, s := float64(m.Layers), float64(m.Hidden), float64(m.SeqLen)
		weights := float64(ActiveParams(m)) - float64(m.Vocab)*h - (2*l+1)*h
		want := 6*weights + 12*l*h*s
		got := IterationFLOPs(m, 1, RecomputeNone).Model() / s
		if !near(got, want, 1e-12) {
			t.Errorf("%s: %.6e FLOPs per token, want %.6e", name, got, want)
		}
	}
}

func TestParallelSplitsDivideWork(t *testing.T) {
	m, _ := LookupModel("llama3-70b")
	whole := LayerFLOPs(m, 2, 1, 1, RecomputeFull).Total()
	for _, d := range []struct{ t, c int }{{2, 1}, {8, 1}, {1, 4}, {8, 2}} {
		got := LayerFLOPs(m, 2, d.t, d.c, RecomputeFull).Total().Times(float64(d.t * d.c))
		if !near(got.Forward, whole.Forward, 1e-12) || !near(got.BackwardInput, whole.BackwardInput, 1e-12) ||
			!near(got.BackwardWeight, whole.BackwardWeight, 1e-12) || !near(got.Recompute, whole.Recompute, 1e-12) {
			t.Errorf("t=%d c=%d: %+v × %d, want %+v", d.t, d.c, got, d.t*d.c, whole)
		}
	}
}

func TestRecomputePolicies(t *testing.T) {
	m, _ := LookupModel("gpt3-175b")
	none := LayerFLOPs(m, 1, 8, 1, RecomputeNone)
	sel := LayerFLOPs(m, 1, 8, 1, RecomputeSelective)
	full := LayerFLOPs(m, 1, 8, 1, RecomputeFull)
	if none.Total().Recompute != 0 {
		t.Errorf("none recomputes %g", none.Total().Recompute)
	}
	if got, want := sel.Total().Recompute, none.Attention.Forward; got != want {
		t.Errorf("selective recomputes %g, want the attention core's forward %g", got, want)
	}
	if got, want := full.Total().Recompute, none.Total().Forward; got != want {
		t.Errorf("full recomputes %g, want the layer's forward %g", got, want)
	}
	if sel.Total().Model() != none.Total().Model() || full.Total().Model() != none.Total().Model() {
		t.Errorf("recomputation must not change model FLOPs")
	}
}

func TestStageFLOPs(t *testing.T) {
	m, _ := LookupModel("llama3-8b")
	layer := LayerFLOPs(m, 1, 2, 1, RecomputeNone).Total()
	head := HeadFLOPs(m, 1, 2, 1)
	if got, want := StageFLOPs(m, 8, false, false, 1, 2, 1, RecomputeNone), layer.Times(8); got != want {
		t.Errorf("middle stage %+v, want %+v", got, want)
	}
	if got, want := StageFLOPs(m, 8, true, true, 1, 2, 1, RecomputeNone), layer.Times(8).Plus(head); got != want {
		t.Errorf("single stage %+v, want %+v", got, want)
	}
}

func TestFLOPsPanicsOnBadSplit(t *testing.T) {
	for _, f := range []func(){
		func() { LayerFLOPs(tiny, 0, 1, 1, RecomputeNone) },
		func() { LayerFLOPs(tiny, 1, 0, 1, RecomputeNone) },
		func() { LayerFLOPs(tiny, 1, 1, 1, "some") },
		func() { HeadFLOPs(tiny, 1, 1, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

// TestLinearFLOPsAreTheH2Term: the linear GEMMs of a GPT layer (QKV,
// projection, a 4h GeLU MLP) are the "1" of Narayanan et al.'s
// 72·B·s·l·h²·(1 + s/(6h) + V/(12lh)): 72·B·s·l·h² for forward and
// backward; the attention core (the s/(6h) term) and the head (the V
// term) are not in them. The MoE router is not either.
func TestLinearFLOPsAreTheH2Term(t *testing.T) {
	const b = 2
	got := StageLinearFLOPs(tiny, tiny.Layers, b, 1, 1, RecomputeNone)
	B, s, l, h := float64(b), float64(tiny.SeqLen), float64(tiny.Layers), float64(tiny.Hidden)
	if want := 72 * B * s * l * h * h; got.Model() != want {
		t.Errorf("linear FLOPs %v, want 72·B·s·l·h² = %v", got.Model(), want)
	}
	if got.Forward != got.BackwardInput || got.Forward != got.BackwardWeight {
		t.Errorf("linear F, B, W = %v, %v, %v; want equal (dgrad and wgrad cost a forward each)", got.Forward, got.BackwardInput, got.BackwardWeight)
	}
	full := StageLinearFLOPs(tiny, 1, b, 1, 1, RecomputeFull)
	if full.Recompute != full.Forward {
		t.Errorf("full recompute reruns %v of the linear forward %v", full.Recompute, full.Forward)
	}
	moe := Model{Name: "moe", Layers: 1, Hidden: 64, Heads: 4, FFN: FFNSwiGLU, FFNHidden: 128, MoE: MoE{Experts: 8, TopK: 2}, Vocab: 1000, SeqLen: 128}
	ops := LayerFLOPs(moe, 1, 1, 1, RecomputeNone)
	if got, want := ops.Linear(), ops.QKV.Plus(ops.Projection).Plus(ops.MLP); got != want || ops.Router.Forward == 0 {
		t.Errorf("MoE linear %+v, want QKV + projection + experts %+v without the router %+v", got, want, ops.Router)
	}
}
