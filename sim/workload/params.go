package workload

import "fmt"

// ParamCount is an exact parameter count split by where the parameters
// live, so that a pipeline can place the embedding on its first stage and
// the output head on its last.
type ParamCount struct {
	// Embedding is the token table V·h plus, with learned positions, the
	// position table s·h.
	Embedding int64
	// PerLayer is one transformer layer: attention, MLP (all experts and
	// the router for MoE), its two norms and biases.
	PerLayer int64
	// Layers is the number of layers, so that the total is
	// Embedding + Layers·PerLayer + FinalNorm + Head.
	Layers int64
	// FinalNorm is the norm after the last layer.
	FinalNorm int64
	// Head is the output projection h·V, or 0 when tied to Embedding.
	Head int64
}

// Total is every parameter of the model.
func (p ParamCount) Total() int64 {
	return p.Embedding + p.Layers*p.PerLayer + p.FinalNorm + p.Head
}

// Params counts m's parameters exactly (the architecture as published:
// GQA key/value widths, gated or plain MLP, norm weights and biases, tied
// or untied head). For a GPT-style model it is NarayananParams plus the
// final LayerNorm's 2h, which their closed form leaves out.
func Params(m Model) ParamCount {
	h := int64(m.Hidden)
	p := ParamCount{
		Embedding: int64(m.Vocab) * h,
		PerLayer:  attentionParams(m) + mlpParams(m) + 2*normParams(m),
		Layers:    int64(m.Layers),
		FinalNorm: normParams(m),
	}
	if m.Position == PositionLearned {
		p.Embedding += int64(m.SeqLen) * h
	}
	if !m.TiedEmbeddings {
		p.Head = int64(m.Vocab) * h
	}
	return p
}

// ActiveParams counts the parameters one token uses: Params with only TopK
// of each layer's experts (Fedus et al. 2022's "active" count, e.g. 12.9B
// of Mixtral 8x7B's 46.7B). It equals Params().Total() for dense models.
func ActiveParams(m Model) int64 {
	p := Params(m)
	if !m.IsMoE() {
		return p.Total()
	}
	unused := int64(m.Experts-m.TopK) * expertParams(m, m.ExpertWidth())
	return p.Total() - p.Layers*unused
}

// attentionParams is Q and output projections h·h each plus K and V
// projections h·(kv_heads·head_dim) each, with a bias per output when Bias.
func attentionParams(m Model) int64 {
	h := int64(m.Hidden)
	kv := int64(m.KVHeadCount() * m.HeadDim())
	p := h * (2*h + 2*kv)
	if m.Bias {
		p += 2*h + 2*kv
	}
	return p
}

// mlpParams is the dense MLP, or for MoE all experts plus the router h·E
// (bias-free, as in Mixtral and Switch).
func mlpParams(m Model) int64 {
	if !m.IsMoE() {
		return expertParams(m, m.FFNWidth())
	}
	return int64(m.Experts)*expertParams(m, m.ExpertWidth()) + int64(m.Hidden)*int64(m.Experts)
}

// expertParams is one MLP of inner width f: two h×f matrices for GeLU
// (biases f and h), three for SwiGLU (biases 2f and h).
func expertParams(m Model, f int) int64 {
	h, ff := int64(m.Hidden), int64(f)
	mats, biases := int64(2), ff+h
	if m.FFN == FFNSwiGLU {
		mats, biases = 3, 2*ff+h
	}
	p := mats * h * ff
	if m.Bias {
		p += biases
	}
	return p
}

// normParams is one norm: weight and bias (2h) for LayerNorm, weight (h)
// for RMSNorm.
func normParams(m Model) int64 {
	if m.Norm == NormLayer {
		return 2 * int64(m.Hidden)
	}
	return int64(m.Hidden)
}

// NarayananParams is the closed form of Narayanan et al. 2021 (SC'21, §5.1,
// Eq. 2) for a GPT model of l layers, hidden h, vocabulary V and sequence
// s: P = 12·l·h²·(1 + 13/(12h) + (V+s)/(12·l·h)). It is each layer's
// 12h² + 13h (QKV 3h²+3h, projection h²+h, MLP 8h²+5h, two LayerNorms 4h)
// plus the token and position tables (V+s)·h, with the output head tied;
// it omits the final LayerNorm.
func NarayananParams(l, h, vocab, seq int) float64 {
	L, H, V, S := float64(l), float64(h), float64(vocab), float64(seq)
	return 12 * L * H * H * (1 + 13/(12*H) + (V+S)/(12*L*H))
}

// StageParams is the number of parameters one GPU holds for a pipeline
// stage of layers layers (first: it holds the embedding; last: the final
// norm and the head) under tensor parallelism t and expert parallelism ep:
// the Ψ that ModelStateBytes takes. As in Megatron-LM, weight matrices and
// the vocabulary are split t ways (Shoeybi et al. 2019), norm weights are
// replicated, experts are split ep ways, and with tied embeddings a last
// stage that is not also the first keeps its own copy of the word
// embeddings for the head. Biases are counted as split, position tables as
// split with the vocabulary: both are below 0.01% of any preset.
func StageParams(m Model, layers int, first, last bool, t, ep int) float64 {
	if layers < 0 || t < 1 || ep < 1 {
		panic(fmt.Sprintf("workload: stage of %d layers, tensor parallel %d, expert parallel %d", layers, t, ep))
	}
	p := Params(m)
	T := float64(t)
	norms := 2 * float64(normParams(m))
	split := float64(p.PerLayer) - norms
	if m.IsMoE() {
		experts := float64(int64(m.Experts) * expertParams(m, m.ExpertWidth()))
		split += experts/float64(ep) - experts
	}
	total := float64(layers) * (split/T + norms)
	if first {
		total += float64(p.Embedding) / T
	}
	if last {
		total += float64(p.FinalNorm) + float64(p.Head)/T
		if m.TiedEmbeddings && !first {
			total += float64(int64(m.Vocab)*int64(m.Hidden)) / T
		}
	}
	return total
}
