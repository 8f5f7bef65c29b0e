package training

import (
	"sync"

	"paraplay/sim/gemm"
	"paraplay/sim/operators"
	"paraplay/sim/pipeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// opPricer is the operator-level roofline of a GPU (package operators):
// each GEMM at the efficiency sim/gemm gives its shape, dtype and GPU
// (fitted to measured tables), fused attention at operators.FlashEfficiency (fitted to FlashAttention-3's measured forward pass),
// everything else bound by its HBM bytes at the bandwidth memory-bound
// GEMMs were measured to stream at, and every kernel its fitted launch
// once. ok is false when the GPU has no GEMM parameters.
func opPricer(c *costs) (*operators.Pricer, bool) {
	gm, err := gemm.For(c.gpu)
	if err != nil {
		return nil, false
	}
	params, err := gemm.Lookup(c.gpu.Name)
	if err != nil {
		return nil, false
	}
	eff := func(s operators.Shape) float64 {
		if s.Kind != operators.KindGEMM {
			return operators.FlashEfficiency(s.Attention, gm.Ceiling(gemm.BF16)/gm.Peak(gemm.BF16)) * mxuFill(params, s.Attention)
		}
		d := gemm.BF16
		if s.DType == operators.FP8 {
			d = gemm.FP8
		}
		g := gemm.Shape{Batch: max(s.GEMM.Batch, 1), M: s.GEMM.M, N: s.GEMM.N, K: s.GEMM.K}
		t, err := gm.Time(g, d)
		if err != nil {
			return 1
		}
		body := max(t-gm.Launch(), 1e-12)
		return min(max(c.gemmScale*g.FLOPs()/(gm.Peak(d)*body), 1e-6), 1)
	}
	r := operators.FromGPU(c.gpu, eff)
	r.FP8FLOPS = c.gpu.PeakFP8
	r.HBMBandwidth *= params.HBMEfficiency
	r.Launch = units.Round(gm.Launch())
	p, err := operators.NewPricer(r)
	return p, err == nil
}

// mxuFill is the fraction of a TPU's systolic array that fused attention's
// matmuls keep busy: each of them has a head dimension as its contraction
// (QKᵀ, dO·Vᵀ) or its output width (P·V, dS·K, dSᵀ·Q, Pᵀ·dO), which the
// array pads up to its side (gemm.Params.MXU), so the query-key and value
// halves of the work, in proportion to d and dv, run at d/pad(d) and
// dv/pad(dv): one half for 128-wide heads on TPU v6e's 256 × 256 MXUs,
// 1 on a GPU. The FlashAttention fit (operators.FlashEfficiency) was made
// on an H100, where no head pads.
func mxuFill(p gemm.Params, a operators.Attention) float64 {
	d, dv := a.HeadDim, a.VHeadDim
	if dv == 0 {
		dv = d
	}
	if d <= 0 || dv <= 0 {
		return 1
	}
	return float64(d+dv) / float64(p.Pad(d)+p.Pad(dv))
}

// opTimes prices each stage's F, B and W from the operator lists of its
// layers (a mixture of experts' MoE layers at balanced routing and its
// dense first layers apart), the embedding (first stage) and the head and
// multi-token prediction modules (last stage), and reports whether it
// could: an explicit training.efficiency or a GPU without GEMM parameters
// keep the FLOP-count pricing.
func (c *costs) opTimes(act activations, explicitEfficiency bool) bool {
	if explicitEfficiency || !act.dense {
		return false
	}
	ph, ok := pricedPhases(c, act.cfg)
	if !ok {
		return false
	}
	layer, emb, head := ph[0], ph[1], ph[2]
	dense := layer
	if c.model.IsMoE() && c.model.MoE.DenseLayers > 0 {
		dph, ok := pricedPhases(c, denseConfig(act.cfg))
		if !ok {
			return false
		}
		dense = dph[0]
	}
	for k := range c.layers {
		st := c.stage(k)
		nm := units.Time(workload.MoELayersIn(c.model, st))
		nd := units.Time(st.Layers) - nm
		f := nm*layer.Forward + nd*dense.Forward
		b := nm*(layer.BackwardInput+layer.Recompute) + nd*(dense.BackwardInput+dense.Recompute)
		w := nm*layer.BackwardWeight + nd*dense.BackwardWeight
		if st.First {
			f, b, w = f+emb.Forward, b+emb.BackwardInput+emb.Recompute, w+emb.BackwardWeight
		}
		if st.Last {
			// The head, then each MTP module's MoE layer and head pass (its
			// 2h → h projection, under 1% of the layer, left out).
			n := 1 + units.Time(c.model.MTP)
			mtp := n - 1
			f, b, w = f+n*head.Forward+mtp*layer.Forward, b+n*(head.BackwardInput+head.Recompute)+mtp*(layer.BackwardInput+layer.Recompute),
				w+n*head.BackwardWeight+mtp*layer.BackwardWeight
		}
		c.opTime[pipeline.F][k], c.opTime[pipeline.B][k], c.opTime[pipeline.W][k] = max(f, 1), max(b, 1), max(w, 1)
	}
	return true
}

// phases are the priced phases of a layer, the embedding and the head,
// and of the layer's GEMMs alone.
type phases [4]operators.PhaseTimes

// pricedPhases prices the operator lists of cfg on c's GPU, remembering
// them by (GPU, configuration): the planner screens thousands of plans
// that share a few dozen, and each list costs tens of GEMM evaluations.
// The prices are a function of the key alone, so the cache changes no
// result; it is safe for the planner's goroutines and bounded.
func pricedPhases(c *costs, cfg operators.Config) (phases, bool) {
	key := phaseKey{c.gpu.Name, c.gemmScale, cfg}
	phaseCache.Lock()
	ph, ok := phaseCache.m[key]
	phaseCache.Unlock()
	if ok {
		return ph, true
	}
	pr, ok := opPricer(c)
	if !ok {
		return ph, false
	}
	for i, build := range []func(operators.Config) (operators.List, error){operators.Layer, operators.Embedding, operators.Head} {
		l, err := build(cfg)
		if err != nil {
			return ph, false
		}
		if ph[i], err = pr.ByPhase(l); err != nil {
			return ph, false
		}
		if i == 0 {
			var gemms operators.List
			for _, op := range l {
				if op.Kind == operators.KindGEMM {
					gemms = append(gemms, op)
				}
			}
			if ph[3], err = pr.ByPhase(gemms); err != nil {
				return ph, false
			}
		}
	}
	phaseCache.Lock()
	if len(phaseCache.m) >= maxCachedActivations {
		clear(phaseCache.m)
	}
	phaseCache.m[key] = ph
	phaseCache.Unlock()
	return ph, true
}

type phaseKey struct {
	gpu   string
	scale float64 // pricing.gemmScale
	cfg   operators.Config
}

var phaseCache = struct {
	sync.Mutex
	m map[phaseKey]phases
}{m: map[phaseKey]phases{}}

// commInterference is how much longer a GEMM runs while a communication
// kernel shares its GPU: SMs/(SMs − commSMs), the GEMM's waves spread
// over the SMs the collective leaves it.
func commInterference(sms int) float64 {
	return float64(sms) / float64(sms-min(commSMs, sms/2))
}

// commSMs is the SMs an overlapped collective occupies: NCCL runs one
// thread block per channel, and an NVLink all-gather on an H100 was seen
// to launch 24 (an NVIDIA developer forum report, "Compute-communication
// overlap causes severe GEMM performance degradation because of tail
// effect", 2025); Transformer Engine's user buffers move data with copy
// engines or a few SMs. 16 sits between, UNCONFIRMED.
const commSMs = 16

// overlapTP is a stage pass's tensor-parallel communication as it shows
// on the critical path. Blocking (the default, Megatron's) it is the
// collectives' time. With parallel.tp_comm_overlap each collective runs
// beside the GEMM it feeds or drains, so a pass costs interference ×
// max(gemm, comm) instead of gemm + comm: the exposed part is that minus
// the GEMMs' own time. l is the stage's layers; lin its linear FLOPs.
func (c *costs) overlapTP(fwd, bwd units.Time, l units.Time, lin workload.OpFLOPs, act activations) (units.Time, units.Time) {
	if !c.par.TPCommOverlap {
		return fwd, bwd
	}
	// The backward's own collectives hide under its input-gradient GEMMs;
	// a recomputed forward's, added after, under the recomputation's.
	gf, gb := c.time(lin.Forward, lin.Forward), c.time(lin.BackwardInput, lin.BackwardInput)
	if ph, ok := pricedPhases(c, act.cfg); ok && act.dense && !c.explicitEff {
		g := ph[3]
		gf, gb = l*g.Forward, l*g.BackwardInput
	}
	sms := 108
	if p, err := gemm.Lookup(c.gpu.Name); err == nil {
		sms = p.SMs
	}
	f := commInterference(sms)
	exposed := func(gemmTime, comm units.Time) units.Time {
		return max(0, units.Round(f*float64(max(gemmTime, comm))*1e-9)-gemmTime)
	}
	return exposed(gf, fwd), exposed(gb, bwd)
}
