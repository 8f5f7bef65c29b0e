package training

import (
	"paraplay/sim/moe"
	"paraplay/sim/pipeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// The two-microbatch overlap (model.moe.overlap: two-microbatch) of a run
// without a pipeline. Each microbatch is split into two halves of b/2
// sequences that go through every MoE layer in turn on two resources, the
// SMs and the fabric: while half a dispatches or combines, half b
// computes its attention or its experts, and the other way round. This is
// what DeepSeek's inference stack calls two-batch overlap, and Megatron-
// Core overlaps the expert-parallel all-to-all of one microbatch with
// another's compute likewise (DeepSeek-AI, DeepSeek-V3 Technical Report
// 2024, §3.4 and §3.2.1, for the idea of hiding one microbatch's
// all-to-all under another's compute).
//
// Per MoE layer and pass, with C' the two halves' compute and A' their
// all-to-alls, each half's A'/2 runs under the other half's C'/2, so the
// layer exposes 2·max(0, A'/2 − C'/2) = max(0, A' − C') and lasts
// max(C', A'): the bound of two overlapped streams (as for DualPipe's
// pairs, moe_overlap.go). The split's price is in C' and A': each half's
// GEMMs run at half the rows (priced at b/2 by the operator lists, which
// lose efficiency on smaller GEMMs; the FLOP-count pricing loses none),
// and each half's all-to-all pays its latency again (A' = 2·A(b/2) =
// A(b) + α on one port). The first half's first attention and the last
// half's last combine of a pass have nothing to hide under; ParaPlay
// neglects that edge (one layer's piece, under 1/L of the pass), as the
// SMs the communication kernels take (DeepSeek gives them 20 of 132).

// splitter prices the two-microbatch overlap of one iteration's MoE
// layers; nil when the scenario does not split.
type splitter struct {
	// full and half are one balanced MoE layer's F, B (with its
	// recomputation) and W at b and at b/2 sequences.
	full, half [3]units.Time
	// splitB says the backward's W is an op apart (else a B computes it).
	splitB, recompute bool
	// a2a caches the halves' all-to-alls of a balanced layer (−1: not
	// yet priced).
	a2a units.Time
	// hidden[pass][k] is what model stage k's layers hide of their
	// all-to-alls in the forward (0) and backward (1).
	hidden [2][]units.Time
}

// newSplitter is the iteration's splitter, nil unless model.moe.overlap
// is two-microbatch and the experts span several GPUs.
func (tr *iteration) newSplitter(act *activations) *splitter {
	if tr.s.Model.MoE.Overlap != overlapTwoMicrobatch || tr.par.EP <= 1 {
		return nil
	}
	b := tr.par.MicroBatchSize
	sp := &splitter{full: tr.moeLayerTime(act, b), half: tr.moeLayerTime(act, b/2), splitB: tr.sch.SplitBackward,
		recompute: tr.par.Recompute == string(workload.RecomputeFull), a2a: -1}
	for pass := range sp.hidden {
		sp.hidden[pass] = make([]units.Time, len(tr.layers))
	}
	return sp
}

// moeLayerTime is one balanced MoE layer's F, B (with recomputation) and
// W at b sequences, priced as the stage's ops are: by the operator lists
// when opTimes could, else by the FLOPs at the efficiency.
func (tr *iteration) moeLayerTime(act *activations, b int) [3]units.Time {
	if !tr.explicitEff && act.dense {
		cfg := act.cfg
		cfg.MicroBatch = b
		if ph, ok := pricedPhases(&tr.costs, cfg); ok {
			l := ph[0]
			return [3]units.Time{l.Forward, l.BackwardInput + l.Recompute, l.BackwardWeight}
		}
	}
	p := tr.par
	r := workload.Recompute(p.Recompute)
	f := workload.LayerFLOPs(tr.model, b, p.TP, p.CP, r)
	lin := f.Linear()
	t := f.Total()
	return [3]units.Time{tr.time(t.Forward, lin.Forward), tr.time(t.BackwardInput+t.Recompute, lin.BackwardInput+lin.Recompute),
		tr.time(t.BackwardWeight, lin.BackwardWeight)}
}

// halfLoad is layer l's routing for one half: the same shares, half the
// copies on each GPU.
func halfLoad(l moe.Layer) moe.Layer {
	h := l
	h.Load = make([]float64, len(l.Load))
	for j, c := range l.Load {
		h.Load[j] = c / 2
	}
	h.Copies /= 2
	return h
}

// layer prices one MoE layer of stage k routed as l, whose slowest GPU's
// experts take excess beyond the balanced layer's in F, B and W: it
// returns the halves' all-to-alls of one pass, A' = 2·A(l/2), and adds to
// the stage's hidden all-to-alls min(A', C') of each pass and to extra
// the split's compute, 2·C(b/2) − C(b), per kind.
func (sp *splitter) layer(k int, l moe.Layer, lay moe.Layout, xch *exchange, alike bool, excess [3]units.Time, extra *[3][]units.Time) units.Time {
	a := sp.a2a
	if a < 0 || !alike {
		a = 2 * xch.time(halfLoad(l), lay)
		if alike {
			sp.a2a = a
		}
	}
	var c, d [3]units.Time
	for kind := range c {
		d[kind] = 2*sp.half[kind] - sp.full[kind]
		c[kind] = sp.full[kind] + excess[kind] + d[kind]
		extra[kind][k] += d[kind]
	}
	cb, ab := c[1], a
	if !sp.splitB {
		cb += c[2]
	}
	if sp.recompute {
		ab += a // the recomputed forward's all-to-alls
	}
	sp.hidden[0][k] += min(a, c[0])
	sp.hidden[1][k] += min(ab, cb)
	return a
}

// apply records the overlap on x: each F and B op of the device's order
// hides its stage's hidden all-to-alls, and x.hide draws them
// (drawHidden).
func (sp *splitter) apply(tr *iteration, x *routed) {
	x.hide = make([]map[pipeline.Op]half, len(tr.sch.Order))
	for d, order := range tr.sch.Order {
		x.hide[d] = map[pipeline.Op]half{}
		for _, o := range order {
			if o.Kind == pipeline.W {
				continue
			}
			k := tr.stageOfDev[d][o.Chunk]
			h := sp.hidden[min(int(o.Kind), 1)][k]
			x.hide[d][o] = half{under: h, shown: h, bytes: x.bytes[k]}
		}
	}
}

// splitCost is the compute the split adds to op o of model stage k.
func (x *routed) splitCost(kinds []pipeline.Kind, k int) units.Time {
	var t units.Time
	for _, kd := range kinds {
		if x.extra[kd] != nil {
			t += x.extra[kd][k]
		}
	}
	return t
}
