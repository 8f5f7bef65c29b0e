package operators

// attentionBlocks is the attention core between the QKV projection and
// the output projection: flash or eager.
func attentionBlocks(c Config, sh shape) []block {
	if c.Attention == Flash {
		return flashBlocks(c, sh)
	}
	return eagerBlocks(c, sh)
}

// flashShape is the fused kernel's shape on this GPU.
func flashShape(c Config, sh shape) Attention {
	return Attention{
		Batch: c.MicroBatch, Heads: int(sh.heads), KVHeads: int(sh.kvHeads),
		QueryLen: c.Model.SeqLen / c.CP, KeyLen: c.Model.SeqLen, HeadDim: int(sh.d), VHeadDim: int(sh.dv), Causal: c.Causal,
	}
}

// flashFLOPs is the fused kernel's forward FLOPs: QKᵀ and P·V, 2·b·a·
// s_q·s_k·(d + d_v) (4·b·a·s_q·s_k·d when the value heads are as wide),
// halved under a causal mask because the kernel skips the masked blocks
// (the count flash-attention's benchmark uses).
func flashFLOPs(a Attention) float64 {
	dv := a.VHeadDim
	if dv == 0 {
		dv = a.HeadDim
	}
	f := 2 * float64(a.Batch) * float64(a.Heads) * float64(a.QueryLen) * float64(a.KeyLen) * float64(a.HeadDim+dv)
	if a.Causal {
		f /= 2
	}
	return f
}

// e5m6Bytes is the size of one element in DeepSeek-V3's E5M6 format: 1
// sign, 5 exponent and 6 mantissa bits.
const e5m6Bytes = 12.0 / 8

// flashBlocks is FlashAttention: under context parallelism a ring
// exchange of key/value chunks first, then one kernel that keeps Q, K, V
// and the fp32 logsumexp of each query row and head. The output O is kept
// by the output projection, which reads the same tensor; under FP8 the
// projection keeps an FP8 copy, so the kernel keeps its 16-bit O as well.
// Its backward pass recomputes the scores: five matmuls for the forward's
// two, 2.5× the FLOPs (the count of flash-attention's benchmark script),
// of which 2× are model FLOPs. With dropout the kernel regenerates its
// mask from the random generator's state, so dropout keeps no bytes.
func flashBlocks(c Config, sh shape) []block {
	var blocks []block
	kvLocal := sh.tokens * sh.kvHeads * (sh.d + sh.dv) * sh.act // K and V
	if c.CP > 1 {
		// Each GPU passes its K and V chunk around the ring c−1 times
		// forward, and K, V with their gradients backward (Liu et al. 2023).
		ring := (sh.c - 1) * kvLocal
		blocks = append(blocks, block{core: true,
			fwd: collective("attn.cp_ring", Forward, "send_recv", "cp", ring),
			bwd: []Op{collective("attn.cp_ring.grad", BackwardInput, "send_recv", "cp", 2*ring)}})
	}
	a := flashShape(c, sh)
	q := sh.tokens * sh.heads * sh.d * sh.act
	o := sh.tokens * sh.heads * sh.dv * sh.act
	kvAll := sh.b * sh.s * sh.kvHeads * (sh.d + sh.dv) * sh.act // every key and value reaches the GPU
	lse := sh.b * sh.heads * (sh.s / sh.c) * FP32.Bytes()
	fl := flashFLOPs(a)
	f := Op{Name: "attn.flash", Kind: KindAttention, Phase: Forward, DType: c.activationDType(), Attention: a,
		FLOPs: fl, ModelFLOPs: fl, ReadBytes: q + kvAll, WriteBytes: o + lse,
		SavedBytes: q + kvLocal, SavedStats: lse}
	drop := 0.0
	switch {
	case c.FP8Cache:
		// One 12-bit E5M6 copy of O serves the projection and this
		// backward (DeepSeek-V3 §3.3.3); the projection keeps none.
		f.SavedBytes += o * e5m6Bytes / sh.act
	case c.Precision == FP8:
		f.SavedBytes += o
		drop = o
	}
	bwd := Op{Name: "attn.flash.grad", Kind: KindAttention, Phase: BackwardInput, DType: c.activationDType(), Attention: a,
		FLOPs: 2.5 * fl, ModelFLOPs: 2 * fl, ReadBytes: q + 2*o + kvAll + lse, WriteBytes: q + kvLocal}
	b := block{fwd: f, bwd: []Op{bwd}, core: true, drop: drop}
	if c.Model.IsMLA() {
		// Q, K and V come from MLA's up-projections, which mla_up_proj
		// re-runs from the latents.
		b = discarded(b, MLAUpProj, q+kvLocal)
	}
	return append(blocks, b)
}

// eagerBlocks is Korthikanti et al. 2022's attention core (§4.1): QKᵀ
// keeps Q and K, the fused scale-mask-softmax keeps its output, dropout
// its 1-byte mask and P·V the dropout output and V; the s×s tensors are
// 5·a·s²·b bytes per layer (over t), all of which selective recomputation
// drops. The backward pass is two batched GEMMs per forward GEMM. Under
// GQA the key/value heads are first repeated to one per query head, as
// Megatron-Core's unfused path does.
func eagerBlocks(c Config, sh shape) []block {
	dt := c.activationDType()
	s, d := int(c.Model.SeqLen), int(sh.d)
	batch := c.MicroBatch * int(sh.heads)
	scores := sh.b * sh.heads * sh.s * sh.s
	q := sh.tokens * sh.heads * sh.d * sh.act
	kv := sh.tokens * sh.kvHeads * sh.d * sh.act
	// Q, K and V are views of the QKV output (torch.split along the last
	// dimension, megatron/mpu/utils.py split_tensor_along_last_dim); the
	// split's backward concatenates their three gradients into one tensor,
	// a copy of the QKV output's size.
	qkv := sh.tokens * (sh.heads + 2*sh.kvHeads) * sh.d
	blocks := []block{{bwd: []Op{pointwise("attn.qkv_split.grad", KindElementwise, BackwardInput, dt, qkv, 0, qkv*sh.act, qkv*sh.act)}}}
	repeated := 0.0 // what the repeated copies add over K or V itself; selective recomputation drops it
	if sh.kvHeads < sh.heads {
		// Megatron-Core's unfused attention repeats each key/value head
		// for its group of query heads (repeat_interleave) before the
		// batched GEMMs, which then keep the repeated copies.
		blocks = append(blocks, block{core: true,
			fwd: pointwise("attn.repeat_kv", KindElementwise, Forward, dt, 2*q/sh.act, 0, 2*kv, 2*q),
			bwd: []Op{pointwise("attn.repeat_kv.grad", KindReduction, BackwardInput, dt, 2*q/sh.act, addFLOPs, 2*q, 2*kv)}})
		repeated, kv = q-kv, q
	}

	qk := gemm("attn.scores", Forward, dt, GEMM{M: s, N: s, K: d, Batch: batch}, sh.act)
	qk.ReadBytes, qk.SavedBytes = q+kv, q+kv // a group's heads share one K
	qkBwd := []Op{
		gemm("attn.scores.grad_q", BackwardInput, dt, GEMM{M: s, N: d, K: s, Batch: batch}, sh.act),
		gemm("attn.scores.grad_k", BackwardInput, dt, GEMM{M: s, N: d, K: s, Batch: batch}, sh.act),
	}
	// Under a causal mask Megatron's fused kernel (scaled_upper_triang_
	// masked_softmax.h) loads only each row's unmasked elements, about
	// half, and writes the whole row (zeros above the diagonal); its
	// backward loads the unmasked halves of the gradient and the output.
	read := scores * sh.act
	if c.Causal {
		read /= 2
	}
	soft := pointwise("attn.softmax", KindReduction, Forward, dt, scores, softmaxFLOPs, read, scores*sh.act)
	soft.SavedBytes = scores * sh.act
	softBwd := pointwise("attn.softmax.grad", KindReduction, BackwardInput, dt, scores, softmaxFLOPs-1, 2*read, scores*sh.act)
	blocks = append(blocks,
		block{fwd: qk, bwd: qkBwd, core: true, drop: repeated},
		block{fwd: soft, bwd: []Op{softBwd}, core: true, drop: soft.SavedBytes})
	pv := gemm("attn.context", Forward, dt, GEMM{M: s, N: d, K: s, Batch: batch}, sh.act)
	pv.ReadBytes, pv.SavedBytes = scores*sh.act+kv, kv
	if c.Dropout {
		drop := pointwise("attn.dropout", KindElementwise, Forward, dt, scores, dropoutFLOPs, scores*sh.act, scores*sh.act+scores)
		drop.SavedBytes = scores
		dropBwd := pointwise("attn.dropout.grad", KindElementwise, BackwardInput, dt, scores, dropoutFLOPs, scores*sh.act+scores, scores*sh.act)
		blocks = append(blocks, block{fwd: drop, bwd: []Op{dropBwd}, core: true, drop: scores})
		pv.SavedBytes += scores * sh.act // the dropout output; without dropout P·V reuses the softmax's
	}
	pvBwd := []Op{
		gemm("attn.context.grad_p", BackwardInput, dt, GEMM{M: s, N: s, K: d, Batch: batch}, sh.act),
		gemm("attn.context.grad_v", BackwardInput, dt, GEMM{M: s, N: d, K: s, Batch: batch}, sh.act),
	}
	blocks = append(blocks, block{fwd: pv, bwd: pvBwd, core: true, drop: pv.SavedBytes - kv + repeated})
	// P·V writes [b·heads, s, d]; the output projection wants [s, b, h/t],
	// so the context is permuted into a new tensor (context_layer.permute(2,
	// 0, 1, 3).contiguous() in megatron/model/transformer.py, inside the
	// core that selective recomputation re-runs). Its backward is a view.
	perm := pointwise("attn.context_permute", KindElementwise, Forward, dt, q/sh.act, 0, q, q)
	return append(blocks, block{fwd: perm, core: true})
}
