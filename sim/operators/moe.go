package operators

import (
	"fmt"
	"math"

	"paraplay/sim/workload"
)

// A mixture of experts' layer (Shazeer et al. 2017; Lepikhin et al. 2020,
// GShard; Fedus et al. 2022, Switch) replaces the MLP by: the router's
// GEMM of each token against every expert, the softmax and top-k choice,
// the permutation that groups each token's top_k copies by expert, the
// dispatch all-to-all over the expert-parallel group, with expert tensor
// parallelism an all-gather of the rows over the etp GPUs that split each
// expert, the grouped GEMMs of the local experts (each expert at the rows
// routed to it), the reduce-scatter and combine all-to-all back, and the
// unpermutation that sums each token's expert outputs weighted by the
// router's probabilities; shared experts run beside it as a dense MLP of
// their width. As Megatron-Core runs it under tensor parallelism (which
// it requires with sequence parallelism), each tensor-parallel GPU routes
// its 1/tp of the tokens.

// routedTokens is the tokens one GPU routes: its 1/tp share.
func routedTokens(sh shape) float64 { return sh.tokens / sh.t }

// BalancedRows is the rows each of a GPU's experts/ep local experts
// computes when routing is balanced: every expert of the expert-parallel
// group gets ep·tokens·top_k/experts of its routed token copies, and with
// expert tensor parallelism the etp GPUs that split an expert each compute
// all of their group's rows (etp times as many, on 1/etp of the width).
func BalancedRows(c Config) []float64 { return balancedRows(c, shapeOf(c)) }

func balancedRows(c Config, sh shape) []float64 {
	x := c.Model.MoE
	rows := make([]float64, x.Experts/c.ep())
	per := float64(c.etp()) * float64(c.ep()) * routedTokens(sh) * float64(x.TopK) / float64(x.Experts)
	for i := range rows {
		rows[i] = per
	}
	return rows
}

// moeBlocks is the MoE layer's blocks after its norm, its local experts
// computing rows[i] rows each.
func moeBlocks(c Config, sh shape, rows []float64) []block {
	m := c.Model
	dt := c.activationDType()
	tr := routedTokens(sh)
	e, k := float64(m.MoE.Experts), float64(m.MoE.TopK)
	rsh := sh
	rsh.linear = dt // the gate stays in 16 bits (DeepSeek-V3 §3.3.1)
	n, fp := tr*e, FP32.Bytes()
	copies := tr * k * sh.h // the token copies this GPU sends
	tokens, sent := tr*sh.h*sh.act, copies*sh.act
	bs := []block{discarded(linear("moe.router", rsh, tr, sh.h, e, tokens, 0), LayerNorm, tokens),
		pair("moe.topk", KindReduction, dt, n, softmaxFLOPs, n*sh.act, n*fp, n*fp, 2*n*fp, n*sh.act),
		pair("moe.permute", KindElementwise, dt, copies, 0, tokens, sent, 0, sent, tokens)}
	var sum float64
	for _, r := range rows {
		sum += r
	}
	gathered := sum * sh.h * sh.act
	ep, etp := c.ep() > 1, c.etp() > 1
	bs = exchange(bs, ep, "moe.dispatch", "all_to_all", "all_to_all", "ep", sent)
	bs = exchange(bs, etp, "moe.etp_gather", "all_gather", "reduce_scatter", "etp", gathered)
	bs = append(bs, expertBlocks(c, sh, rows)...)
	bs = exchange(bs, etp, "moe.etp_scatter", "reduce_scatter", "all_gather", "etp", gathered)
	bs = exchange(bs, ep, "moe.combine", "all_to_all", "all_to_all", "ep", sent)
	// The weighted sum keeps the expert outputs for the probabilities'
	// gradient.
	bs = append(bs, pair("moe.unpermute", KindElementwise, dt, copies, 2, sent+tr*k*fp, tokens, sent, tokens+sent, sent+tr*k*fp))
	if s := m.MoE.SharedExperts; s > 0 {
		ssh := sh
		ssh.f = float64(s*m.ExpertWidth()) / sh.t
		regather := 0.0
		if c.SequenceParallel && c.TP > 1 {
			regather = sh.tokens * sh.h * sh.act
		}
		bs = append(bs, tpEnter("moe.shared.tp_enter", c, sh)...)
		bs = append(bs, mlpBlocks(c, ssh, "moe.shared", 0, regather)...) // its input is the router's, kept once
		bs = append(bs, tpExit("moe.shared.tp_exit", c, sh)...)
	}
	return bs
}

// pair is a pointwise kernel of kind k on n elements (f FLOPs each,
// reading r and writing w bytes, keeping saved) and its gradient (fb FLOPs
// each, reading rb and writing wb).
//
//go:noinline
func pair(name string, k Kind, dt DType, n, f, r, w, saved, rb, wb float64) block {
	fwd := pointwise(name, k, Forward, dt, n, f, r, w)
	fwd.SavedBytes = saved
	return block{fwd: fwd, bwd: []Op{pointwise(name+".grad", k, BackwardInput, dt, n, f+1, rb, wb)}}
}

// exchange appends, when on, a collective of op forward and grad backward
// over group.
//
//go:noinline
func exchange(bs []block, on bool, name, op, grad, group string, bytes float64) []block {
	if !on {
		return bs
	}
	return append(bs, block{fwd: collective(name, Forward, op, group, bytes), bwd: []Op{collective(name+".grad", BackwardInput, grad, group, bytes)}})
}

// expertBlocks is the grouped GEMMs of the local experts, expert i at
// rows[i] rows (rounded to whole rows; an expert without any is skipped):
// up (gate and up fused for SwiGLU), the activation over every row at
// once, down. Each GEMM's first expert pays the grouped kernel's launch.
func expertBlocks(c Config, sh shape, rows []float64) []block {
	m := c.Model
	dt := c.activationDType()
	f := float64(m.ExpertWidth()) / float64(c.etp())
	width, per, name := f, float64(geluFLOPs), "moe.experts.gelu"
	if m.FFN == workload.FFNSwiGLU {
		width, per, name = 2*f, swigluFLOPs, "moe.experts.swiglu"
	}
	var up, down []block
	var total float64
	for _, r := range rows {
		r = math.Round(r)
		if r <= 0 {
			continue
		}
		total += r
		u := linear("moe.experts.up", sh, r, sh.h, width, r*sh.h*sh.linear.Bytes(), 0)
		d := discarded(linear("moe.experts.down", sh, r, f, sh.h, r*f*sh.linear.Bytes(), 0), MoEAct, r*f*sh.linear.Bytes())
		if len(up) > 0 {
			grouped(&u)
			grouped(&d)
		}
		up, down = append(up, u), append(down, d)
	}
	if total == 0 {
		return nil
	}
	in, out := total*width, total*f
	kept := in * sh.act
	if c.FP8Cache {
		kept = in * FP8.Bytes() // DeepSeek-V3 caches the SwiGLU inputs in FP8 (§3.3.3)
	}
	act := pair(name, KindElementwise, dt, out, per, in*sh.act, out*sh.linear.Bytes(), kept, in*sh.act+out*sh.act, in*sh.act)
	return append(append(up, redone(act, MoEAct)), down...)
}

// grouped marks a block's ops as later pieces of grouped GEMMs.
func grouped(b *block) {
	b.fwd.Grouped = true
	for i := range b.bwd {
		b.bwd[i].Grouped = b.bwd[i].Kind == KindGEMM
	}
}

// Experts is the op list of a GPU's local experts of one MoE layer for one
// microbatch, expert i computing rows[i] rows (BalancedRows gives the
// balanced ones; a skewed router gives the hot expert more): its grouped
// GEMMs and activation forward, their recomputation under full
// recomputation, and backward. Layer holds the same ops at the balanced
// rows, so a skewed layer is Layer − Experts(balanced) + Experts(rows).
func Experts(c Config, rows []float64) (List, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if !c.moeLayer() {
		return nil, fmt.Errorf("operators: model %s has no experts in this layer", c.Model.Name)
	}
	return assembleFrom(c, expertBlocks(c, shapeOf(c), rows), false), nil
}
