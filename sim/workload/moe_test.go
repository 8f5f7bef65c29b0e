package workload

import (
	"math"
	"testing"
)

// TestMoEPresetsMatchPublished holds every mixture of experts' total and
// active parameter counts within 1% of the published figures. Publishers
// count the active parameters two ways: Mistral and Qwen with the input
// embedding, DeepSeek ("36.6B … including 0.9B for the output Head") and
// OpenAI (5.13B = attention, the top-4 experts and the unembedding) without.
func TestMoEPresetsMatchPublished(t *testing.T) {
	tests := []struct {
		name            string
		activeEmbedding bool // the published active count includes the input embedding
	}{
		{"mixtral-8x7b", true},
		{"mixtral-8x22b", true},
		{"deepseek-v3", false},
		{"qwen3-235b-a22b", true},
		{"gpt-oss-120b", false},
	}
	for _, tc := range tests {
		m, err := LookupModel(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		total := float64(Params(m).Total())
		active := float64(ActiveParams(m))
		if !tc.activeEmbedding {
			active -= float64(Params(m).Embedding)
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{{"total", total, m.PublishedParams}, {"active", active, m.PublishedActive}} {
			err := c.got/c.want - 1
			if c.want == 0 || math.Abs(err) > 0.01 {
				t.Errorf("%s: %s %.4gB parameters, published %.4gB (%+.2f%%, allowed ±1%%)", tc.name, c.what, c.got/1e9, c.want/1e9, 100*err)
			}
			t.Logf("%-16s %-6s %8.3fB  published %7.3fB  %+.2f%%", tc.name, c.what, c.got/1e9, c.want/1e9, 100*err)
		}
	}
}

// TestDeepSeekV3LayerByHand writes one of DeepSeek-V3's MLA attention
// blocks and MoE layers out tensor by tensor (the names of its
// checkpoint), and its dense first layers' MLP.
func TestDeepSeekV3LayerByHand(t *testing.T) {
	m, _ := LookupModel("deepseek-v3")
	const h, heads, qr, kvr, rope, nope, v = 7168, 128, 1536, 512, 64, 128, 128
	attn := int64(h*qr + qr + // q_a_proj, q_a_layernorm
		qr*heads*(nope+rope) + // q_b_proj
		h*(kvr+rope) + kvr + // kv_a_proj_with_mqa, kv_a_layernorm
		kvr*heads*(nope+v) + // kv_b_proj
		heads*v*h) // o_proj
	expert := int64(3 * h * 2048)
	moe := attn + 256*expert + expert + 256*h + 2*h // routed, shared, gate, two norms
	dense := attn + 3*h*18432 + 2*h
	p := Params(m)
	if p.PerLayer != moe || p.DenseLayer != dense || p.DenseLayers != 3 {
		t.Errorf("per layer %d (dense %d × %d), want %d (dense %d × 3)", p.PerLayer, p.DenseLayer, p.DenseLayers, moe, dense)
	}
	m.MTP = 1
	if got, want := Params(m).MTP, moe+2*h*h+3*h; got != want {
		t.Errorf("one MTP module: %d parameters, want %d", got, want)
	}
}

// TestStageParamsMoE splits DeepSeek-V3's stages: the dense first layers
// sit on the first stage only, experts split ep·etp ways.
func TestStageParamsMoE(t *testing.T) {
	m, _ := LookupModel("deepseek-v3")
	all := StageParamsOf(m, Stage{Layers: m.Layers, First: true, Last: true}, 1, 1, 1)
	if want := float64(Params(m).Total()); all != want {
		t.Errorf("one stage holds %.0f, want all %.0f", all, want)
	}
	first := StageParamsOf(m, Stage{From: 0, Layers: 4}, 1, 64, 1)
	later := StageParamsOf(m, Stage{From: 4, Layers: 4}, 1, 64, 1)
	e := float64(3 * 7168 * 2048)
	// Layers 0-2 are dense (18,432-wide MLP) where later layers hold 4
	// routed experts, the shared one and the router.
	dense := float64(3*7168*18432) - (4*e + e + 256*7168)
	if got := first - later; math.Abs(got-3*dense) > 1 {
		t.Errorf("dense first layers: stage difference %.0f, want %.0f", got, 3*dense)
	}
	if got, want := StageParamsOf(m, Stage{From: 4, Layers: 1}, 1, 8, 1)-StageParamsOf(m, Stage{From: 4, Layers: 1}, 1, 8, 2), 16*e; got != want {
		t.Errorf("etp 2 halves 32 local experts: saves %.0f, want %.0f", got, want)
	}
}

// TestMoEFLOPs checks an MoE layer's MLP against top_k + shared experts
// per token, and the iteration against the active parameters' 6·N·T.
func TestMoEFLOPs(t *testing.T) {
	m, _ := LookupModel("deepseek-v3")
	l := LayerFLOPs(m, 1, 1, 1, RecomputeNone)
	tokens := float64(m.SeqLen)
	if got, want := l.MLP.Forward, 9*2*tokens*3*7168*2048; math.Abs(got-want) > 1 {
		t.Errorf("MLP forward %.4g, want %.4g", got, want)
	}
	// Kaplan et al. 2020's 6·N per token over the active weights that
	// take part in matmuls (no embedding; the head does), plus attention's
	// s-dependent part, which the count leaves out.
	it := IterationFLOPs(m, 1, RecomputeNone).Model()
	n := float64(ActiveParams(m) - Params(m).Embedding)
	attn := float64(m.Layers) * 3 * LayerFLOPs(m, 1, 1, 1, RecomputeNone).Attention.Forward
	if got, want := it-attn, 6*n*tokens; math.Abs(got/want-1) > 0.005 {
		t.Errorf("iteration without attention %.5g FLOPs, want 6·N·T = %.5g", got, want)
	}
}
