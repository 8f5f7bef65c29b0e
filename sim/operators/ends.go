package operators

import (
	"errors"
	"fmt"

	"paraplay/sim/workload"
)

// Embedding is the input embedding on a first pipeline stage for one
// microbatch: Megatron's vocabulary-parallel lookup (each GPU gathers the
// rows of its V/t slice and zeroes the rest), the all-reduce that sums
// the slices (a reduce-scatter under sequence parallelism), dropout when
// c.Dropout, and backward the scatter-add of the gradient into the table's
// fp32 main gradient. Learned position tables are left out: one more row
// read per token.
func Embedding(c Config) (List, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	sh := shapeOf(c)
	dt := c.activationDType()
	n := sh.tokens * sh.h
	bs := []block{{
		fwd: pointwise("embed.lookup", KindElementwise, Forward, dt, n, 0, n*sh.act/sh.t, n*sh.act),
		bwd: []Op{pointwise("embed.lookup.grad", KindElementwise, BackwardWeight, dt, n/sh.t, addFLOPs,
			n*sh.act+2*n*FP32.Bytes()/sh.t, n*FP32.Bytes()/sh.t)},
	}}
	if c.TP > 1 {
		s := n * sh.act
		if c.SequenceParallel {
			bs = append(bs, block{fwd: collective("embed.tp_exit", Forward, "reduce_scatter", "tp", s),
				bwd: []Op{collective("embed.tp_exit.grad", BackwardInput, "all_gather", "tp", s)}})
		} else {
			bs = append(bs, block{fwd: collective("embed.tp_exit", Forward, "all_reduce", "tp", s)})
		}
	}
	if c.Dropout {
		local := sh.local * sh.h
		d := pointwise("embed.dropout", KindElementwise, Forward, dt, local, dropoutFLOPs, local*sh.act, local*sh.act+local)
		d.SavedBytes = local
		bs = append(bs, block{fwd: d, bwd: []Op{pointwise("embed.dropout.grad", KindElementwise, BackwardInput, dt,
			local, dropoutFLOPs, local*sh.act+local, local*sh.act)}})
	}
	return assemble(withoutRecompute(c), bs), nil
}

// Head is the end of a last pipeline stage for one microbatch: the final
// norm, the vocabulary-parallel logits GEMM (h → V/t, kept in 16 bits
// under FP8 as DeepSeek-V3 keeps its output head) and Megatron's
// vocabulary-parallel cross-entropy, which casts the logits to fp32
// (Megatron-LM's default, fp16_lm_cross_entropy off), all-reduces the row
// maxima, sums of exponentials and target logits over the tensor-parallel
// group, and keeps the fp32 softmax for the backward pass. The head is
// never recomputed.
func Head(c Config) (List, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	sh := shapeOf(c)
	sh.linear = c.activationDType()
	dt := sh.linear
	final := norm("head.norm", c, sh)
	final.bwd = final.bwd[:1] // no residual fork after the last norm
	bs := []block{final}
	bs = append(bs, tpEnter("head.tp_enter", c, sh)...)
	regather := 0.0
	if c.SequenceParallel && c.TP > 1 {
		regather = sh.tokens * sh.h * sh.act
	}
	v := float64(PaddedVocab(c.Model.Vocab, c.TP)) / sh.t
	bs = append(bs, linear("head.logits", sh, sh.tokens, sh.h, v, sh.local*sh.h*sh.act, regather))
	n := sh.tokens * v
	cast := pointwise("head.logits_fp32", KindElementwise, Forward, dt, n, 0, n*sh.act, n*FP32.Bytes())
	ce := pointwise("head.cross_entropy", KindReduction, Forward, FP32, n, softmaxFLOPs, 2*n*FP32.Bytes(), n*FP32.Bytes())
	ce.SavedBytes = n * FP32.Bytes()
	ceBwd := pointwise("head.cross_entropy.grad", KindElementwise, BackwardInput, FP32, n, addFLOPs, n*FP32.Bytes(), n*sh.act)
	bs = append(bs, block{fwd: cast}, block{fwd: ce, bwd: []Op{ceBwd}})
	if c.TP > 1 {
		for _, what := range []string{"max", "sum_exp", "target"} {
			bs = append(bs, block{fwd: collective("head.cross_entropy."+what, Forward, "all_reduce", "tp", sh.tokens*FP32.Bytes())})
		}
	}
	return assemble(withoutRecompute(c), bs), nil
}

// VocabMultiple is Megatron-LM's default make-vocab-size-divisible-by:
// the vocabulary is padded to a multiple of it times t, so that each
// tensor-parallel GPU holds an equal, GEMM-friendly slice.
const VocabMultiple = 128

// PaddedVocab is vocab padded as Megatron-LM pads it for tensor
// parallelism tp: the next multiple of VocabMultiple·tp (Llama 3's 128,256
// becomes 129,024 at tp 8; Megatron's 51,200 is already a multiple).
func PaddedVocab(vocab, tp int) int {
	m := VocabMultiple * tp
	return (vocab + m - 1) / m * m
}

// withoutRecompute is c with recomputation off, for the ops outside the
// layers, which Megatron-LM's recomputation does not touch.
func withoutRecompute(c Config) Config {
	c.Recompute = workload.RecomputeNone
	return c
}

// Optimizer is one GPU's optimizer step for params parameters (its tensor
// and pipeline shard) under Megatron-LM's distributed optimizer over dp
// data-parallel ranks: reduce-scatter of the fp32 main gradients, the
// gradient norm over its 1/dp shard, Adam on the shard (reading the fp32
// gradient, master weight and both moments, 16 bytes, writing master and
// moments and the bf16 weight, 14 bytes), and the all-gather of the bf16
// weights. dp = 1 has no collectives.
func Optimizer(params float64, dp int) (List, error) {
	var errs []error
	if !(params >= 0) {
		errs = append(errs, fmt.Errorf("operators: optimizer parameters = %v, want ≥ 0", params))
	}
	if dp < 1 {
		errs = append(errs, fmt.Errorf("operators: parallel.dp = %d, want at least 1", dp))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	shard := params / float64(dp)
	var l List
	if dp > 1 {
		l = append(l, collective("optimizer.grad_reduce_scatter", Step, "reduce_scatter", "dp", params*FP32.Bytes()))
	}
	l = append(l,
		pointwise("optimizer.grad_norm", KindReduction, Step, FP32, shard, 2, shard*FP32.Bytes(), 0),
		pointwise("optimizer.adam", KindElementwise, Step, FP32, shard, adamFLOPs, 16*shard, 14*shard))
	if dp > 1 {
		l = append(l, collective("optimizer.param_all_gather", Step, "all_gather", "dp", params*BF16.Bytes()))
	}
	return l, nil
}
