package operators

import "paraplay/sim/workload"

// The constructors of single ops. FLOP counts of non-matmul kernels are
// per element and approximate (a LayerNorm is about 7 operations per
// element: mean, variance, normalise, scale, shift); these kernels are
// bound by their bytes, so the counts do not decide their time.
const (
	layerNormFLOPs = 7 // mean, centre, square, sum, rstd·x, ·γ, +β
	rmsNormFLOPs   = 4 // square, sum, rstd·x, ·γ
	softmaxFLOPs   = 5 // scale, max, exp(x − max), sum, divide (mask fused)
	geluFLOPs      = 8 // tanh approximation: cube, fma, tanh, mul, add, mul
	swigluFLOPs    = 5 // sigmoid (≈3) and two multiplies, per output element
	rotaryFLOPs    = 3 // x·cos + rotate(x)·sin
	dropoutFLOPs   = 2 // compare, scale
	addFLOPs       = 1
	adamFLOPs      = 14 // two moment updates, bias corrections, update, weight decay
)

// gemm is a GEMM op whose inputs are dt and whose output is outBytes per
// element; every FLOP is a model FLOP.
func gemm(name string, ph Phase, dt DType, g GEMM, outBytes float64) Op {
	in, batch := dt.Bytes(), float64(g.Batch)
	m, n, k := float64(g.M), float64(g.N), float64(g.K)
	return Op{
		Name: name, Kind: KindGEMM, Phase: ph, DType: dt, GEMM: g,
		FLOPs: g.FLOPs(), ModelFLOPs: g.FLOPs(),
		ReadBytes: batch * (m*k + k*n) * in, WriteBytes: batch * m * n * outBytes,
	}
}

// pointwise is a non-matmul kernel of kind k that does flops per element
// over elems elements, reading and writing the given bytes. It is not
// inlined: each of its few dozen callers would build a whole Op in place,
// which costs the browser's download more than the calls cost the run.
//
//go:noinline
func pointwise(name string, k Kind, ph Phase, dt DType, elems, flops, read, write float64) Op {
	return Op{Name: name, Kind: k, Phase: ph, DType: dt, FLOPs: elems * flops, ReadBytes: read, WriteBytes: write}
}

// collective is a communication op; it keeps nothing and does no FLOPs
// that the roofline prices. Not inlined, as pointwise.
//
//go:noinline
func collective(name string, ph Phase, op, group string, bytes float64) Op {
	return Op{Name: name, Kind: KindCollective, Phase: ph, Comm: Comm{Op: op, Group: group, Bytes: bytes}}
}

// block is one forward op with the backward ops it causes, in the order
// they run (a block whose forward op has no Name has no forward kernel,
// like the identity half of Megatron's f operator). core marks the attention core, which selective recomputation
// re-runs; drop is what that policy then no longer keeps of SavedBytes
// (it drops SavedStats of the core too). redo is the recompute modules
// that re-run the block's forward op to rebuild an output they discard;
// freed is what the block's forward op no longer keeps when a module of
// freedBy is recomputed (the discarded output it had kept).
type block struct {
	fwd     Op
	bwd     []Op
	core    bool
	drop    float64
	redo    Modules
	freedBy Modules
	freed   float64
}

// redone marks b's forward op as one that recompute module m re-runs.
func redone(b block, m Modules) block {
	b.redo = m
	return b
}

// discarded marks b's forward op as one that keeps bytes no longer when
// recompute module m rebuilds them: its input, m's producer's output.
func discarded(b block, m Modules, bytes float64) block {
	b.freedBy, b.freed = m, bytes
	return b
}

// linear is a weight matmul Y = X·W on m tokens, k inputs and n outputs,
// keeping saved bytes of its input: dgrad dX = dY·Wᵀ (m×k, reduced over n)
// and wgrad dW = Xᵀ·dY (k×n, reduced over the m tokens), which accumulates
// into an fp32 main gradient (Megatron-LM's gradient-accumulation fusion:
// it reads and writes 4-byte dW). With sequence parallelism the input was
// kept sharded and is all-gathered again for wgrad (Korthikanti et al.
// 2022, §4.2.2): regather is that all-gather's bytes, 0 without.
func linear(name string, sh shape, m, k, n float64, saved, regather float64) block {
	dt := sh.linear
	f := gemm(name, Forward, dt, GEMM{M: int(m), N: int(n), K: int(k), Batch: 1}, sh.act)
	f.SavedBytes = saved
	dgrad := gemm(name+".dgrad", BackwardInput, dt, GEMM{M: int(m), N: int(k), K: int(n), Batch: 1}, sh.act)
	b := block{fwd: f}
	if regather > 0 {
		b.bwd = append(b.bwd, collective(name+".regather", BackwardWeight, "all_gather", "tp", regather))
	}
	if sh.unfusedAcc {
		// The GEMM writes a 16-bit dW; a separate kernel reads it and the
		// accumulated gradient and writes the sum back: Megatron-LM's
		// main_grad.add_ into fp32 (which bf16 forces), or, in fp16
		// without --accumulate-allreduce-grads-in-fp32 (its default in
		// 2021), autograd's in-place add into the fp16 .grad.
		acc16 := sh.mainGrad
		wgrad := gemm(name+".wgrad", BackwardWeight, dt, GEMM{M: int(k), N: int(n), K: int(m), Batch: 1}, sh.act)
		acc := pointwise(name+".grad_accumulate", KindElementwise, BackwardWeight, BF16, k*n, addFLOPs,
			k*n*(sh.act+acc16), k*n*acc16)
		b.bwd = append(b.bwd, dgrad, wgrad, acc)
		return b
	}
	wgrad := gemm(name+".wgrad", BackwardWeight, dt, GEMM{M: int(k), N: int(n), K: int(m), Batch: 1}, FP32.Bytes())
	wgrad.ReadBytes += k * n * FP32.Bytes()
	b.bwd = append(b.bwd, dgrad, wgrad)
	return b
}

// norm is the LayerNorm or RMSNorm before a sublayer, on the tokens this
// GPU holds (sharded under sequence parallelism). It keeps its input and
// per-token statistics (mean and rstd, or rstd, in fp32). Its backward
// pass also adds the residual branch's gradient to the skip path's, which
// autograd does where the residual stream forks.
func norm(name string, c Config, sh shape) block {
	per := float64(layerNormFLOPs)
	stats := 2 * FP32.Bytes()
	if c.Model.Norm == workload.NormRMS {
		per, stats = rmsNormFLOPs, FP32.Bytes()
	}
	n := sh.local * sh.h
	f := pointwise(name, KindReduction, Forward, c.activationDType(), n, per, n*sh.act+sh.h*sh.act, n*sh.linear.Bytes())
	f.SavedBytes, f.SavedStats = n*sh.act, sh.local*stats
	bwd := pointwise(name+".grad", KindReduction, BackwardInput, c.activationDType(), n, 2*per, 3*n*sh.act, n*sh.act)
	add := pointwise(name+".grad_add", KindElementwise, BackwardInput, c.activationDType(), n, addFLOPs, 2*n*sh.act, n*sh.act)
	return block{fwd: f, bwd: []Op{bwd, add}}
}

// residual is the (bias-)dropout-add that closes a sublayer, fused as in
// Megatron-LM; with dropout it keeps a 1-byte mask per element.
func residual(name string, c Config, sh shape) block {
	n := sh.local * sh.h
	per, write := float64(addFLOPs), n*sh.act
	if c.Dropout {
		per += dropoutFLOPs
		write += n
	}
	f := pointwise(name, KindElementwise, Forward, c.activationDType(), n, per, 2*n*sh.act, write)
	b := block{fwd: f}
	if c.Dropout {
		f.SavedBytes = n
		b.fwd = f
		b.bwd = []Op{pointwise(name+".grad", KindElementwise, BackwardInput, c.activationDType(), n, dropoutFLOPs, n*sh.act+n, n*sh.act)}
	}
	return b
}

// tpEnter is Megatron's f operator before a column-parallel GEMM (Shoeybi
// et al. 2019): identity forward and an all-reduce of the input gradient
// backward; under sequence parallelism an all-gather forward and a
// reduce-scatter backward. It is empty for t = 1.
func tpEnter(name string, c Config, sh shape) []block {
	if c.TP == 1 {
		return nil
	}
	s := sh.tokens * sh.h * sh.act
	if c.SequenceParallel {
		return []block{{fwd: collective(name, Forward, "all_gather", "tp", s),
			bwd: []Op{collective(name+".grad", BackwardInput, "reduce_scatter", "tp", s)}}}
	}
	return []block{{bwd: []Op{collective(name+".grad", BackwardInput, "all_reduce", "tp", s)}}}
}

// tpExit is the g operator after a row-parallel GEMM: an all-reduce
// forward and identity backward; under sequence parallelism a
// reduce-scatter forward and an all-gather backward.
func tpExit(name string, c Config, sh shape) []block {
	if c.TP == 1 {
		return nil
	}
	s := sh.tokens * sh.h * sh.act
	if c.SequenceParallel {
		return []block{{fwd: collective(name, Forward, "reduce_scatter", "tp", s),
			bwd: []Op{collective(name+".grad", BackwardInput, "all_gather", "tp", s)}}}
	}
	return []block{{fwd: collective(name, Forward, "all_reduce", "tp", s)}}
}

// biasGrad adds to linear block b, when the model's linear layers carry
// biases, the kernel that sums the output gradient over its rows (the
// tokens) into the bias gradient: rows×cols 16-bit elements read once, as
// Megatron-LM runs it apart from the GEMMs (grad_output.sum(dim=0) in its
// tensor-parallel linear layers' backward, megatron/mpu/layers.py from
// 2022, or autograd's sum over the broadcast bias of the QKV add, the fused
// bias-GeLU and the fused bias-dropout-add, megatron/model/transformer.py at
// aed2f75e, 2021). Without biases b is returned as it is.
func biasGrad(b block, sh shape, rows, cols float64) block {
	if !sh.bias {
		return b
	}
	n := rows * cols
	g := pointwise(b.fwd.Name+".bias_grad", KindReduction, BackwardWeight, sh.actDType(), n, addFLOPs, n*sh.act, cols*FP32.Bytes())
	b.bwd = append(b.bwd, g)
	return b
}

// qkvBiasAdd is the QKV projection's bias, added by a kernel of its own:
// Megatron-LM's column-parallel QKV keeps its bias in the layer
// (skip_bias_add false), and F.linear on a 3-D input runs the matmul, then
// adds the bias (torch.nn.functional.linear in PyTorch 1.8; Megatron's own
// linear function since 2022 writes output + bias). It reads and writes
// the QKV output once; its gradient is biasGrad's.
func qkvBiasAdd(c Config, sh shape, width float64) block {
	n := sh.tokens * width
	return block{fwd: pointwise("attn.qkv.bias", KindElementwise, Forward, c.activationDType(), n, addFLOPs, n*sh.act+width*sh.act, n*sh.act)}
}
