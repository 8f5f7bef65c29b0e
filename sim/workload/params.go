package workload

import "fmt"

// ParamCount is an exact parameter count split by where the parameters
// live, so that a pipeline can place the embedding on its first stage and
// the output head on its last.
type ParamCount struct {
	// Embedding is the token table V·h plus, with learned positions, the
	// position table s·h.
	Embedding int64
	// PerLayer is one transformer layer: attention, MLP (all experts, the
	// shared ones and the router of an MoE layer), its two norms and
	// biases.
	PerLayer int64
	// Layers is the number of layers, so that the total is
	// Embedding + (Layers − DenseLayers)·PerLayer + DenseLayers·DenseLayer
	// + FinalNorm + Head + MTP.
	Layers int64
	// DenseLayers is how many of the Layers of an MoE model keep a dense
	// MLP (its first dense_layers), each DenseLayer parameters; 0 for a
	// dense model, whose every layer is PerLayer.
	DenseLayers, DenseLayer int64
	// FinalNorm is the norm after the last layer.
	FinalNorm int64
	// Head is the output projection h·V, or 0 when tied to Embedding.
	Head int64
	// MTP is the multi-token prediction modules' own parameters
	// (DeepSeek-V3 §2.2): each a projection of 2h → h, three RMSNorms and
	// one MoE layer; they share the embedding and the head.
	MTP int64
}

// Total is every parameter of the model.
func (p ParamCount) Total() int64 {
	return p.Embedding + (p.Layers-p.DenseLayers)*p.PerLayer + p.DenseLayers*p.DenseLayer + p.FinalNorm + p.Head + p.MTP
}

// Params counts m's parameters exactly (the architecture as published:
// GQA key/value widths, gated or plain MLP, norm weights and biases, tied
// or untied head). For a GPT-style model it is NarayananParams plus the
// final LayerNorm's 2h, which their closed form leaves out.
func Params(m Model) ParamCount {
	h := int64(m.Hidden)
	dense := attentionParams(m) + expertParams(m, m.FFNWidth()) + 2*normParams(m)
	p := ParamCount{
		Embedding: int64(m.Vocab) * h,
		PerLayer:  dense,
		Layers:    int64(m.Layers),
		FinalNorm: normParams(m),
	}
	if m.IsMoE() {
		p.PerLayer = attentionParams(m) + moeLayerParams(m) + 2*normParams(m)
		p.DenseLayers, p.DenseLayer = int64(m.MoE.DenseLayers), dense
		p.MTP = int64(m.MTP) * (p.PerLayer + 2*h*h + 3*normParams(m))
	}
	if m.Position == PositionLearned {
		p.Embedding += int64(m.SeqLen) * h
	}
	if !m.TiedEmbeddings {
		p.Head = int64(m.Vocab) * h
	}
	return p
}

// ActiveParams counts the parameters one token uses: Params with only
// top_k of each MoE layer's routed experts (Fedus et al. 2022's "active"
// count, e.g. 12.9B of Mixtral 8x7B's 46.7B), the input embedding
// included. Publishers differ on the embedding: Mistral and Qwen count
// it, DeepSeek and OpenAI leave the lookup table out (subtract
// Params().Embedding). It equals Params().Total() for dense models.
func ActiveParams(m Model) int64 {
	p := Params(m)
	if !m.IsMoE() {
		return p.Total()
	}
	return p.Total() - int64(m.MoELayers()+m.MTP)*unusedExperts(m)
}

// attentionParams is the query and output projections, h × heads·head_dim
// each, and the key and value projections, h × kv_heads·head_dim each,
// with a bias per output when Bias; or MLA's projections.
func attentionParams(m Model) int64 {
	if m.IsMLA() {
		r, s := mlaWeights(m)
		return r + s
	}
	h := int64(m.Hidden)
	q := int64(m.Heads * m.HeadDim())
	kv := int64(m.KVHeadCount() * m.HeadDim())
	p := h * (2*q + 2*kv)
	if m.Bias {
		p += q + 2*kv + h
	}
	return p
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

// Stage is a pipeline stage's share of the model's layers.
type Stage struct {
	// From is its first layer (from 0) and Layers how many it holds.
	From, Layers int
	// First says it holds the embedding, Last the final norm, the head
	// and the multi-token prediction modules.
	First, Last bool
}

// stageOf is the stage of layers layers a caller that knows only first
// and last means: from layer 0 on a first stage, else past an MoE model's
// dense layers.
func stageOf(m Model, layers int, first, last bool) Stage {
	st := Stage{Layers: layers, First: first, Last: last}
	if !first && m.IsMoE() {
		st.From = m.MoE.DenseLayers
	}
	return st
}

// StageParams is the number of parameters one GPU holds for a pipeline
// stage of layers layers (first: it holds the embedding; last: the final
// norm and the head) under tensor parallelism t and expert parallelism ep
// (expert tensor parallelism t): StageParamsOf of the stage stageOf
// describes.
func StageParams(m Model, layers int, first, last bool, t, ep int) float64 {
	return StageParamsOf(m, stageOf(m, layers, first, last), t, ep, t)
}

// StageParamsOf is the parameters one GPU holds for stage st under tensor
// parallelism t, expert parallelism ep and expert tensor parallelism etp:
// the Ψ that ModelStateBytes takes. As in Megatron-LM, weight matrices and
// the vocabulary are split t ways (Shoeybi et al. 2019), norm weights,
// MLA's down-projections and the MoE router are replicated, each routed
// expert lives on one of ep ranks split etp ways and the shared experts
// are split t ways; with tied embeddings a last stage that is not also the
// first keeps its own copy of the word embeddings for the head. Biases are
// counted as split, position tables as split with the vocabulary: both are
// below 0.01% of any preset.
func StageParamsOf(m Model, st Stage, t, ep, etp int) float64 {
	if st.Layers < 0 || st.From < 0 || t < 1 || ep < 1 || etp < 1 {
		panic(fmt.Sprintf("workload: stage of %d layers from %d, tensor parallel %d, expert parallel %d×%d", st.Layers, st.From, t, ep, etp))
	}
	T := float64(t)
	moe := m.moeLayersIn(st.From, st.Layers)
	var total float64 // a kind of layer the stage has none of adds 0 × its share: skipped
	if moe > 0 {
		total = float64(moe) * layerShare(m, t, ep, etp)
	}
	if dense := st.Layers - moe; dense > 0 {
		total += float64(dense) * layerShare(m, t, 0, 0)
	}
	if !st.First && !st.Last {
		return total
	}
	p := Params(m) // the whole model's count, for the embedding and the head
	if st.First {
		total += float64(p.Embedding) / T
	}
	if st.Last {
		total += float64(p.FinalNorm) + float64(p.Head)/T
		if m.TiedEmbeddings && !st.First {
			total += float64(int64(m.Vocab)*int64(m.Hidden)) / T
		}
		if m.MTP > 0 {
			h := float64(m.Hidden)
			total += float64(m.MTP) * (layerShare(m, t, ep, etp) + 2*h*h/T + 3*float64(normParams(m)))
		}
	}
	return total
}

// layerShare is one layer's parameters on one GPU: a dense layer (ep 0)
// or an MoE layer, as StageParamsOf splits them.
func layerShare(m Model, t, ep, etp int) float64 {
	T := float64(t)
	norms := 2 * float64(normParams(m))
	attn := float64(attentionParams(m)) / T
	if m.IsMLA() {
		r, s := mlaWeights(m)
		attn = float64(r) + float64(s)/T
	}
	if ep == 0 {
		return norms + attn + float64(expertParams(m, m.FFNWidth()))/T
	}
	e := float64(expertParams(m, m.ExpertWidth()))
	x := m.MoE
	return norms + attn + float64(x.Experts)*e/float64(ep*etp) + float64(x.SharedExperts)*e/T + float64(m.Hidden*x.Experts)
}
