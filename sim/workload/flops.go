package workload

import "fmt"

// Recompute is an activation-recomputation policy (Korthikanti et al. 2022).
type Recompute string

// Recomputation policies.
const (
	// RecomputeNone keeps every activation the backward pass needs.
	RecomputeNone Recompute = "none"
	// RecomputeSelective drops the attention core's activations (QKᵀ,
	// softmax, dropout, attention over V) and recomputes that core before
	// the backward pass: little compute, most of the memory.
	RecomputeSelective Recompute = "selective"
	// RecomputeFull keeps only each layer's input and reruns the whole
	// layer's forward pass before its backward pass.
	RecomputeFull Recompute = "full"
)

// Valid reports whether r is one of the three policies.
func (r Recompute) Valid() bool {
	return r == RecomputeNone || r == RecomputeSelective || r == RecomputeFull
}

// OpFLOPs are the floating-point operations that one GPU spends on one op
// for one microbatch, split the way a pipeline schedules them: F, B
// (gradients with respect to inputs, on the critical path) and W
// (gradients with respect to weights, which zero-bubble schedules defer;
// Qi et al. 2024). Recompute is forward work redone just before B.
type OpFLOPs struct {
	// Forward is the forward pass, F.
	Forward float64
	// BackwardInput is the backward pass for input gradients, B.
	BackwardInput float64
	// BackwardWeight is the backward pass for weight gradients, W.
	BackwardWeight float64
	// Recompute is the forward work recomputed before B; not model FLOPs.
	Recompute float64
}

// Model is F + B + W: the FLOPs that count toward MFU.
func (o OpFLOPs) Model() float64 { return o.Forward + o.BackwardInput + o.BackwardWeight }

// Hardware is Model plus Recompute: the FLOPs that count toward HFU.
func (o OpFLOPs) Hardware() float64 { return o.Model() + o.Recompute }

// Plus adds p to o field by field.
func (o OpFLOPs) Plus(p OpFLOPs) OpFLOPs {
	return OpFLOPs{o.Forward + p.Forward, o.BackwardInput + p.BackwardInput,
		o.BackwardWeight + p.BackwardWeight, o.Recompute + p.Recompute}
}

// Times multiplies every field by k (k layers, k microbatches).
func (o OpFLOPs) Times(k float64) OpFLOPs {
	return OpFLOPs{k * o.Forward, k * o.BackwardInput, k * o.BackwardWeight, k * o.Recompute}
}

// matmul is a weight matmul of forward cost f: dX = dY·Wᵀ and dW = Xᵀ·dY
// each cost as much as Y = X·W, so B = W = F.
func matmul(f float64) OpFLOPs { return OpFLOPs{Forward: f, BackwardInput: f, BackwardWeight: f} }

// activationMatmul is a matmul of two activations (QKᵀ, softmax·V) of
// forward cost f: the backward pass computes gradients for both operands,
// 2F, all of it input gradients (there is no weight), so B = 2F, W = 0.
func activationMatmul(f float64) OpFLOPs { return OpFLOPs{Forward: f, BackwardInput: 2 * f} }

// LayerOps are the FLOPs of one transformer layer on one GPU for one
// microbatch, by part. Only matrix multiplications are counted (2 FLOPs
// per multiply-add), as in Narayanan et al. 2021: softmax, norms,
// activations and residual adds are left out.
type LayerOps struct {
	// QKV is the query, key and value projections: 2·T·h·(h + 2·kv_dim).
	QKV OpFLOPs
	// Attention is QKᵀ and softmax·V over the full s×s score matrix (no
	// causal halving, as in the closed form): 4·b·s_q·s·h.
	Attention OpFLOPs
	// Projection is the attention output projection: 2·T·h².
	Projection OpFLOPs
	// MLP is the dense MLP, 2·T·h·f·(2 for GeLU, 3 for SwiGLU), or for MoE
	// top_k routed and every shared expert's worth of it per token.
	MLP OpFLOPs
	// Router is the MoE gate, 2·T·h·experts; zero for dense models.
	Router OpFLOPs
}

// Total sums the parts.
func (l LayerOps) Total() OpFLOPs {
	return l.QKV.Plus(l.Attention).Plus(l.Projection).Plus(l.MLP).Plus(l.Router)
}

// Linear is the part of the layer spent in its linear layers' GEMMs —
// the QKV and output projections and the MLP, forward, dgrad (B) and
// wgrad (W), and their recompute — which FP8 training runs in FP8: the
// layers Transformer Engine's te.Linear replaces and fp8_autocast puts
// in FP8. Left out, as the FP8 recipe of the DeepSeek-V3 report (§3.3.1)
// keeps them in BF16 or FP32: the attention core (QKᵀ and softmax·V, the
// "attention operators") and the MoE router (the "gating modules").
func (l LayerOps) Linear() OpFLOPs {
	return l.QKV.Plus(l.Projection).Plus(l.MLP)
}

// LayerFLOPs is one layer's work on one GPU for a microbatch of b
// sequences, under tensor parallelism t and context parallelism c, with
// recomputation policy r.
//
// Tensor parallelism (Shoeybi et al. 2019) splits heads and the MLP width t
// ways, so every part divides by t. Context parallelism splits the sequence
// c ways: a GPU holds T = b·s/c tokens and its s/c queries attend to all s
// keys (ring attention), so every part also divides by c. Expert
// parallelism does not change a GPU's FLOPs if routing is balanced: each
// GPU still processes top_k expert MLPs per token of its own microbatch.
//
// Backward splits: for weight matmuls B = W = F; for the attention core B =
// 2F and W = 0; so B + W = 2F overall. Recompute is 0 (none), the attention
// core's forward (selective), or the whole layer's forward (full).
func LayerFLOPs(m Model, b, t, c int, r Recompute) LayerOps {
	return layerFLOPs(m, b, t, c, r, m.IsMoE())
}

// layerFLOPs is LayerFLOPs of an MoE layer (moe) or a dense one. Heads may
// be narrower or wider than hidden/heads (head_dim); MLA prices its
// latent projections (mlaFLOPs). An MoE layer runs top_k routed and every
// shared expert per token, and the router's h × experts GEMM.
func layerFLOPs(m Model, b, t, c int, r Recompute, moe bool) LayerOps {
	checkSplit(b, t, c, r)
	s, h := float64(m.SeqLen), float64(m.Hidden)
	q := float64(m.Heads * m.HeadDim())
	kv := float64(m.KVHeadCount() * m.HeadDim())
	tokens := float64(b) * s / float64(c)
	perGPU := 1 / float64(t)
	ops := LayerOps{
		QKV:        matmul(2 * tokens * h * (q + 2*kv) * perGPU),
		Attention:  activationMatmul(4 * tokens * s * q * perGPU),
		Projection: matmul(2 * tokens * q * h * perGPU),
	}
	if m.IsMLA() {
		qkv, attn, proj := mlaFLOPs(m, tokens, s, float64(t))
		ops.QKV, ops.Attention, ops.Projection = matmul(qkv), activationMatmul(attn), matmul(proj)
	}
	if moe {
		experts := float64(m.MoE.TopK + m.MoE.SharedExperts)
		ops.MLP = matmul(experts * mlpFLOPs(m, m.ExpertWidth(), tokens) * perGPU)
		ops.Router = matmul(2 * tokens * h * float64(m.MoE.Experts) * perGPU)
	} else {
		ops.MLP = matmul(mlpFLOPs(m, m.FFNWidth(), tokens) * perGPU)
	}
	switch r {
	case RecomputeSelective:
		ops.Attention.Recompute = ops.Attention.Forward
	case RecomputeFull:
		for _, p := range []*OpFLOPs{&ops.QKV, &ops.Attention, &ops.Projection, &ops.MLP, &ops.Router} {
			p.Recompute = p.Forward
		}
	}
	return ops
}

// mlpFLOPs is the forward cost of one MLP of inner width f for the given
// number of tokens: two h×f matmuls for GeLU, three for SwiGLU.
func mlpFLOPs(m Model, f int, tokens float64) float64 {
	mats := 2.0
	if m.FFN == FFNSwiGLU {
		mats = 3
	}
	return 2 * tokens * float64(m.Hidden) * float64(f) * mats
}

// HeadFLOPs is the output head (the vocabulary projection on the last
// pipeline stage) on one GPU for a microbatch of b sequences: 2·T·h·V
// forward, split over t by Megatron's vocabulary-parallel head and over c
// by the sequence; B = W = F. It is never recomputed (Narayanan et al.
// 2021's recompute formula keeps its 6·B·s·h·V). The softmax and loss are
// not counted.
func HeadFLOPs(m Model, b, t, c int) OpFLOPs {
	checkSplit(b, t, c, RecomputeNone)
	tokens := float64(b) * float64(m.SeqLen) / float64(c)
	return matmul(2 * tokens * float64(m.Hidden) * float64(m.Vocab) / float64(t))
}

// EmbeddingFLOPs is the input embedding on the first pipeline stage: a
// table lookup (and, backward, a scatter-add of b·s·h gradients), which the
// FLOP count of Narayanan et al. 2021 and PaLM's MFU treat as free. It is
// zero; it exists so a stage's work reads as embedding + layers + head, and
// a simulator that wants the lookup's cost should time its memory traffic.
func EmbeddingFLOPs(m Model, b, t, c int) OpFLOPs {
	checkSplit(b, t, c, RecomputeNone)
	return OpFLOPs{}
}

// StageFLOPs is a pipeline stage's work for one microbatch: layers layers,
// plus the embedding if first and the head (and the multi-token
// prediction modules) if last: StageFLOPsOf of the stage stageOf
// describes.
func StageFLOPs(m Model, layers int, first, last bool, b, t, c int, r Recompute) OpFLOPs {
	return StageFLOPsOf(m, stageOf(m, layers, first, last), b, t, c, r)
}

// StageFLOPsOf is stage st's work for one microbatch: its dense and MoE
// layers, the embedding on a first stage, and on a last one the head and
// each multi-token prediction module (an MoE layer, its 2h → h projection
// and another pass through the head; DeepSeek-V3 §2.2).
func StageFLOPsOf(m Model, st Stage, b, t, c int, r Recompute) OpFLOPs {
	total := stageLayers(m, st, b, t, c, r, LayerOps.Total)
	if st.First {
		total = total.Plus(EmbeddingFLOPs(m, b, t, c))
	}
	if st.Last {
		total = total.Plus(HeadFLOPs(m, b, t, c))
		for i := 0; i < m.MTP; i++ {
			total = total.Plus(mtpFLOPs(m, b, t, c, r, LayerOps.Total)).Plus(HeadFLOPs(m, b, t, c))
		}
	}
	return total
}

// stageLayers sums part of the stage's layers, dense and MoE apart.
func stageLayers(m Model, st Stage, b, t, c int, r Recompute, part func(LayerOps) OpFLOPs) OpFLOPs {
	moe := m.moeLayersIn(st.From, st.Layers)
	var total OpFLOPs
	if moe > 0 { // skipped, 0 × x + y is y: a dense model prices one layer
		total = part(layerFLOPs(m, b, t, c, r, true)).Times(float64(moe))
	}
	if dense := st.Layers - moe; dense > 0 {
		total = total.Plus(part(layerFLOPs(m, b, t, c, r, false)).Times(float64(dense)))
	}
	return total
}

// mtpFLOPs is part of one multi-token prediction module's MoE layer and
// its 2h → h projection (a linear GEMM).
func mtpFLOPs(m Model, b, t, c int, r Recompute, part func(LayerOps) OpFLOPs) OpFLOPs {
	tokens := float64(b) * float64(m.SeqLen) / float64(c)
	h := float64(m.Hidden)
	return part(layerFLOPs(m, b, t, c, r, true)).Plus(matmul(2 * tokens * 2 * h * h / float64(t)))
}

// StageLinearFLOPs is the part of StageFLOPs(m, layers, …) spent in the
// layers' linear GEMMs (LayerOps.Linear), which FP8 training runs in FP8;
// the embedding and the output head are not in it (DeepSeek-V3 §3.3.1
// keeps both in higher precision).
func StageLinearFLOPs(m Model, layers, b, t, c int, r Recompute) OpFLOPs {
	return StageLinearFLOPsOf(m, stageOf(m, layers, false, false), b, t, c, r)
}

// StageLinearFLOPsOf is StageLinearFLOPs of stage st, the multi-token
// prediction modules of a last stage included.
func StageLinearFLOPsOf(m Model, st Stage, b, t, c int, r Recompute) OpFLOPs {
	total := stageLayers(m, st, b, t, c, r, LayerOps.Linear)
	if st.Last {
		for i := 0; i < m.MTP; i++ {
			total = total.Plus(mtpFLOPs(m, b, t, c, r, LayerOps.Linear))
		}
	}
	return total
}

// IterationFLOPs is the whole model's work for a global batch of batch
// sequences, summed over all GPUs: every layer and the head, forward and
// backward, with recomputation r. Its Model() is the model FLOPs of MFU,
// its Hardware() those of HFU.
func IterationFLOPs(m Model, batch int, r Recompute) OpFLOPs {
	return StageFLOPsOf(m, Stage{Layers: m.Layers, First: true, Last: true}, batch, 1, 1, r)
}

// NarayananModelFLOPs is the closed form of Narayanan et al. 2021 (SC'21,
// §5.1, Eq. 3 without recomputation) for a GPT model: a batch of B
// sequences of length s through l layers of hidden h with vocabulary V
// costs 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)) FLOPs, forward and backward.
func NarayananModelFLOPs(batch, seq, layers, hidden, vocab int) float64 {
	B, s, l, h, V := float64(batch), float64(seq), float64(layers), float64(hidden), float64(vocab)
	return 72 * B * s * l * h * h * (1 + s/(6*h) + V/(12*l*h))
}

// NarayananRecomputeFLOPs is the same closed form with full activation
// recomputation (Narayanan et al. 2021, Eq. 3): one more forward pass of
// every layer, 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)).
func NarayananRecomputeFLOPs(batch, seq, layers, hidden, vocab int) float64 {
	B, s, l, h, V := float64(batch), float64(seq), float64(layers), float64(hidden), float64(vocab)
	return 96 * B * s * l * h * h * (1 + s/(6*h) + V/(16*l*h))
}

// checkSplit panics on degrees that scenarios validate before a run.
func checkSplit(b, t, c int, r Recompute) {
	if b < 1 || t < 1 || c < 1 {
		panic(fmt.Sprintf("workload: microbatch %d, tensor parallel %d and context parallel %d must be at least 1", b, t, c))
	}
	if !r.Valid() {
		panic(fmt.Sprintf("workload: recompute %q, want none, selective or full", r))
	}
}
