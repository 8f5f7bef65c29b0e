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
	bs := []block{linear("moe.router", rsh, tr, sh.h, e, tr*sh.h*sh.act, 0)}
	n := tr * e
	topk := pointwise("moe.topk", KindReduction, Forward, dt, n, softmaxFLOPs, n*sh.act, n*FP32.Bytes())
	topk.SavedBytes = n * FP32.Bytes()
	bs = append(bs, block{fwd: topk, bwd: []Op{pointwise("moe.topk.grad", KindReduction, BackwardInput, dt, n, softmaxFLOPs, 2*n*FP32.Bytes(), n*sh.act)}})
	copies := tr * k * sh.h // the token copies this GPU sends
	bs = append(bs, block{
		fwd: pointwise("moe.permute", KindElementwise, Forward, dt, copies, 0, tr*sh.h*sh.act, copies*sh.act),
		bwd: []Op{pointwise("moe.permute.grad", KindElementwise, BackwardInput, dt, copies, addFLOPs, copies*sh.act, tr*sh.h*sh.act)}})
	var sum float64
	for _, r := range rows {
		sum += r
	}
	exchange := func(name, op, grad, group string, bytes float64) block {
		return block{fwd: collective(name, Forward, op, group, bytes), bwd: []Op{collective(name+".grad", BackwardInput, grad, group, bytes)}}
	}
	if c.ep() > 1 {
		bs = append(bs, exchange("moe.dispatch", "all_to_all", "all_to_all", "ep", copies*sh.act))
	}
	if etp := c.etp(); etp > 1 {
		bs = append(bs, exchange("moe.etp_gather", "all_gather", "reduce_scatter", "etp", sum*sh.h*sh.act))
	}
	bs = append(bs, expertBlocks(c, sh, rows)...)
	if etp := c.etp(); etp > 1 {
		bs = append(bs, exchange("moe.etp_scatter", "reduce_scatter", "all_gather", "etp", sum*sh.h*sh.act))
	}
	if c.ep() > 1 {
		bs = append(bs, exchange("moe.combine", "all_to_all", "all_to_all", "ep", copies*sh.act))
	}
	// The weighted sum keeps the expert outputs for the probabilities'
	// gradient.
	un := pointwise("moe.unpermute", KindElementwise, Forward, dt, copies, 2, copies*sh.act+tr*k*FP32.Bytes(), tr*sh.h*sh.act)
	un.SavedBytes = copies * sh.act
	bs = append(bs, block{fwd: un, bwd: []Op{pointwise("moe.unpermute.grad", KindElementwise, BackwardInput, dt, copies, 3,
		tr*sh.h*sh.act+copies*sh.act, copies*sh.act+tr*k*FP32.Bytes())}})
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
	for i, r := range rows {
		r = math.Round(r)
		if r <= 0 {
			continue
		}
		total += r
		u := linear(fmt.Sprint("moe.experts.up[", i, "]"), sh, r, sh.h, width, r*sh.h*sh.linear.Bytes(), 0)
		d := linear(fmt.Sprint("moe.experts.down[", i, "]"), sh, r, f, sh.h, r*f*sh.linear.Bytes(), 0)
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
	act := pointwise(name, KindElementwise, Forward, dt, out, per, in*sh.act, out*sh.linear.Bytes())
	act.SavedBytes = in * sh.act
	actBwd := pointwise(name+".grad", KindElementwise, BackwardInput, dt, out, 2*per, in*sh.act+out*sh.act, in*sh.act)
	return append(append(up, block{fwd: act, bwd: []Op{actBwd}}), down...)
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
