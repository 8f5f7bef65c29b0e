package operators

import "paraplay/sim/workload"

// Layer is one transformer layer on one GPU for one microbatch: its
// forward ops, the recomputation c.Recompute asks for (phase Recompute),
// then its backward ops in the order autograd runs them. It returns the
// error of c.Validate.
//
// The layer is pre-norm: norm, QKV projection (GQA: h + 2·kv_heads·d
// outputs, t ways), rotary embedding for RoPE models, attention, output
// projection, dropout and residual add; norm, MLP (GeLU: two matrices;
// SwiGLU: a fused gate-and-up matrix of 2·ffn_hidden outputs, the gated
// activation, the down matrix), dropout and residual add.
func Layer(c Config) (List, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return assemble(c, layerBlocks(c, shapeOf(c))), nil
}

// layerBlocks lists the layer's blocks in forward order.
func layerBlocks(c Config, sh shape) []block {
	regather := 0.0
	if c.SequenceParallel && c.TP > 1 {
		regather = sh.tokens * sh.h * sh.act
	}
	inSaved := sh.local * sh.h * sh.linear.Bytes() // a column-parallel GEMM's input, sharded under SP
	var bs []block
	bs = append(bs, redone(norm("attn.norm", c, sh), LayerNorm))
	bs = append(bs, tpEnter("attn.tp_enter", c, sh)...)
	if c.Model.IsMLA() {
		bs = append(bs, mlaBlocks(c, sh, inSaved, regather)...)
	} else {
		qkvOut := (sh.heads + 2*sh.kvHeads) * sh.d
		bs = append(bs, discarded(biasGrad(linear("attn.qkv", sh, sh.tokens, sh.h, qkvOut, inSaved, regather), sh, sh.tokens, qkvOut), LayerNorm, inSaved))
		if sh.bias {
			bs = append(bs, qkvBiasAdd(c, sh, qkvOut))
		}
		if c.Model.Position == workload.PositionRoPE {
			bs = append(bs, rotary(c, sh, sh.tokens*(sh.heads+sh.kvHeads)*sh.d))
		}
	}
	bs = append(bs, attentionBlocks(c, sh)...)
	// The row-parallel projections add their bias after the all-reduce
	// (or reduce-scatter), fused into the bias-dropout-add, so their bias
	// gradient sums the tokens this GPU holds there.
	projSaved := sh.tokens * sh.heads * sh.dv * sh.linear.Bytes()
	if c.FP8Cache {
		projSaved = 0 // the attention kernel's E5M6 copy (flashBlocks)
	}
	bs = append(bs, biasGrad(linear("attn.proj", sh, sh.tokens, sh.heads*sh.dv, sh.h, projSaved, 0), sh, sh.local, sh.h))
	bs = append(bs, tpExit("attn.tp_exit", c, sh)...)
	bs = append(bs, residual("attn.residual", c, sh))
	bs = append(bs, redone(norm("mlp.norm", c, sh), LayerNorm))
	if c.moeLayer() {
		bs = append(bs, moeBlocks(c, sh, balancedRows(c, sh))...)
	} else {
		bs = append(bs, tpEnter("mlp.tp_enter", c, sh)...)
		bs = append(bs, mlpBlocks(c, sh, "mlp", inSaved, regather)...)
		bs = append(bs, tpExit("mlp.tp_exit", c, sh)...)
	}
	return append(bs, residual("mlp.residual", c, sh))
}

// rotary applies RoPE (Su et al. 2021) to the n elements of Q and K it
// rotates after the projection; it keeps nothing (its backward is the
// inverse rotation, from constants).
func rotary(c Config, sh shape, n float64) block {
	dt := c.activationDType()
	return block{
		fwd: pointwise("attn.rotary", KindElementwise, Forward, dt, n, rotaryFLOPs, n*sh.act, n*sh.act),
		bwd: []Op{pointwise("attn.rotary.grad", KindElementwise, BackwardInput, dt, n, rotaryFLOPs, n*sh.act, n*sh.act)},
	}
}

// mlpBlocks is the MLP: a GeLU MLP keeps the activation's input (4h wide
// for GPT) for GeLU's backward and its output for the second GEMM's wgrad;
// SwiGLU keeps both halves of the fused gate-and-up output and the gated
// product.
func mlpBlocks(c Config, sh shape, prefix string, inSaved, regather float64) []block {
	dt := c.activationDType()
	width, per, name := sh.f, float64(geluFLOPs), prefix+".gelu"
	if c.Model.FFN == workload.FFNSwiGLU {
		width, per, name = 2*sh.f, swigluFLOPs, prefix+".swiglu"
	}
	up := discarded(biasGrad(linear(prefix+".up", sh, sh.tokens, sh.h, width, inSaved, regather), sh, sh.tokens, width), LayerNorm, inSaved)
	in, out := sh.tokens*width, sh.tokens*sh.f
	act := pointwise(name, KindElementwise, Forward, dt, out, per, in*sh.act, out*sh.linear.Bytes())
	act.SavedBytes = in * sh.act
	actBwd := pointwise(name+".grad", KindElementwise, BackwardInput, dt, out, 2*per, in*sh.act+out*sh.act, in*sh.act)
	down := biasGrad(linear(prefix+".down", sh, sh.tokens, sh.f, sh.h, out*sh.linear.Bytes(), 0), sh, sh.local, sh.h)
	return []block{up, {fwd: act, bwd: []Op{actBwd}}, down}
}

// assemble turns blocks into the op list under the recomputation policy:
// forward ops, then the recomputed ones, then every block's backward ops
// from the last block to the first.
func assemble(c Config, bs []block) List { return assembleFrom(c, bs, true) }

// assembleFrom is assemble; with input, full recomputation keeps the first
// block's input (a whole layer's), without it nothing (a layer's part).
func assembleFrom(c Config, bs []block, input bool) List {
	var fwd, re, bwd List
	full := c.Recompute == workload.RecomputeFull
	selective := c.Recompute == workload.RecomputeSelective
	for i, b := range bs {
		if b.fwd.Name == "" {
			continue
		}
		f := b.fwd
		switch {
		case full:
			re = append(re, recomputed(f, f.SavedBytes+f.SavedStats))
			f.SavedBytes, f.SavedStats = 0, 0
			if i == 0 && input {
				// Only the layer's input survives: 2·s·b·h bytes, sharded
				// under sequence parallelism as Megatron-LM keeps it.
				f.SavedBytes = shapeOf(c).local * float64(c.Model.Hidden) * 2
			}
		case selective:
			re = selectively(re, &f, b, c.modules())
		}
		fwd = append(fwd, f)
	}
	for i := len(bs) - 1; i >= 0; i-- {
		bwd = append(bwd, bs[i].bwd...)
	}
	return append(append(fwd, re...), bwd...)
}

// selectively applies selective recomputation of modules to block b,
// whose forward op is f: a re-run attention core keeps what it dropped
// while its backward runs; a re-run producer keeps nothing itself, and
// the output its consumer no longer keeps is rebuilt with it, so the
// consumer's freed bytes go to the last re-run op (the producer comes
// first in forward order).
func selectively(re List, f *Op, b block, modules Modules) List {
	if b.core && modules&CoreAttn != 0 {
		re = append(re, recomputed(*f, b.drop+f.SavedStats))
		f.SavedBytes -= b.drop
		f.SavedStats = 0
	}
	if b.redo&modules != 0 {
		re = append(re, recomputed(*f, 0))
	}
	if b.freedBy&modules != 0 && b.freed > 0 && len(re) > 0 {
		f.SavedBytes -= b.freed
		re[len(re)-1].SavedBytes += b.freed
	}
	return re
}

// recomputed is forward op f run again before the backward pass: the same
// kernel, no model FLOPs, keeping saved bytes until its layer's backward
// pass is done.
func recomputed(f Op, saved float64) Op {
	f.Name += ".recompute"
	f.Phase = Recompute
	f.ModelFLOPs = 0
	f.SavedBytes, f.SavedStats = saved, 0
	return f
}
