package training

import (
	"paraplay/sim/moe"
	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// checkExperts checks a mixture of experts' keys and its parallel layout:
// the model.moe, model.mla and model.mtp overrides in range; each of the
// ep GPUs of an expert-parallel group holds experts/ep whole experts
// (Megatron-LM requires num_experts % expert_model_parallel_size == 0),
// so ep ranges over the divisors of the expert count; etp splits each
// expert's width; the routing's keys (moe.Routing.Validate); and none of
// it on a dense model.
func checkExperts(s *scenario.Scenario, bad scenario.Reporter) {
	x, p := s.Model.MoE, s.Parallel
	for _, f := range []struct {
		field  string
		v, max int
	}{{"model.moe.experts", x.Experts, 4096}, {"model.moe.top_k", x.TopK, 4096}, {"model.moe.expert_ffn_hidden", x.ExpertFFNHidden, 1 << 20},
		{"model.moe.shared_experts", x.SharedExperts, 64}, {"model.moe.dense_layers", x.DenseLayers, 1000},
		{"model.moe.groups", x.Groups, 4096}, {"model.moe.top_groups", x.TopGroups, 4096},
		{"model.mla.kv_lora_rank", s.Model.MLA.KVLoRARank, 1 << 16}, {"model.mla.q_lora_rank", s.Model.MLA.QLoRARank, 1 << 16},
		{"model.mla.rope_head_dim", s.Model.MLA.RopeHeadDim, 4096}, {"model.mla.nope_head_dim", s.Model.MLA.NopeHeadDim, 4096},
		{"model.mla.v_head_dim", s.Model.MLA.VHeadDim, 4096}, {"model.mtp", s.Model.MTP, 8}} {
		if f.v < 0 || f.v > f.max {
			bad(f.field, "is %d; allowed 0..%d (0 = the preset's)", f.v, f.max)
		}
	}
	oneOf(bad, "model.moe.all_to_all", x.AllToAll, allToAllFlat, allToAllHierarchical)
	oneOf(bad, "model.moe.dispatch_precision", x.DispatchPrecision, dispatchBF16, dispatchFP8)
	oneOf(bad, "model.moe.overlap", x.Overlap, overlapNone, overlapTwoMicrobatch)
	checkSplit(s, bad)
	checkSpine(s, bad)
	if s.Model.IsSynthetic() || !expertKeys(s) {
		return
	}
	m, err := s.Model.Resolve()
	if err != nil {
		return // checkModel reports it
	}
	if s.Model.Attention == "mla" && !m.IsMLA() {
		bad("model.attention", "is mla, but model %s has no latent dimensions; give model.mla.kv_lora_rank (and the other model.mla keys) or an MLA preset such as deepseek-v3", m.Name)
	}
	if s.Model.Eager() && m.IsMLA() {
		bad("model.attention", "is eager, but model %s uses MLA, whose fused kernel is flash; allowed: flash, mla", m.Name)
	}
	if !m.IsMoE() {
		checkDense(s, m, bad)
		return
	}
	ep, etp := p.EP, p.Plan().ExpertTP()
	switch {
	case ep > m.MoE.Experts:
		bad("parallel.ep", "is %d but model %s has %d experts; allowed 1..%d", ep, m.Name, m.MoE.Experts, m.MoE.Experts)
	case ep >= 1 && m.MoE.Experts%ep != 0:
		bad("parallel.ep", "is %d, which does not divide model %s's %d experts; allowed a divisor of %d", ep, m.Name, m.MoE.Experts, m.MoE.Experts)
	}
	if etp >= 1 && m.ExpertWidth()%etp != 0 {
		bad("parallel.etp", "is %d, which does not divide model %s's expert width %d", etp, m.Name, m.ExpertWidth())
	}
	lay := moe.Layout{Experts: m.MoE.Experts, TopK: m.MoE.TopK, EP: max(ep, 1)}
	if err := x.Routing.Validate(lay); err != nil {
		for _, e := range scenario.Problems(err) {
			field, msg := splitField(e.Error())
			bad(field, "%s", msg)
		}
	}
}

// expertKeys reports whether s sets anything checkExperts must look at
// the resolved model for: expert parallelism, an etp, a routing or MoE
// override, MLA keys, or an attention kernel an MLA model may refuse. (A
// plan search validates thousands of scenarios; resolving each model
// again costs a catalog look-up.)
func expertKeys(s *scenario.Scenario) bool {
	x, p := s.Model.MoE, s.Parallel
	r := x.Routing
	return p.EP > 1 || (p.ETP != 0 && p.ETP != p.TP) || s.Model.Attention == "mla" || s.Model.Eager() ||
		x.Experts+x.TopK+x.ExpertFFNHidden+x.SharedExperts+x.DenseLayers+x.Groups+x.TopGroups != 0 || x.Router != "" ||
		x.AllToAll != "" || x.DispatchPrecision != "" || x.Overlap != "" ||
		s.Model.MLA != (workload.MLA{}) || s.Model.MTP != 0 ||
		r.Skew != "" || r.CV != 0 || r.S != 0 || r.HotExperts != 0 || len(r.Histogram) > 0 || r.CapacityFactor != 0 || r.Redundant != 0
}

// checkDense refuses expert-parallel and routing keys on a dense model.
func checkDense(s *scenario.Scenario, m workload.Model, bad scenario.Reporter) {
	p, r := s.Parallel, s.Model.MoE.Routing
	switch {
	case p.EP > 1:
		bad("parallel.ep", "is %d but model %s has no experts (a dense model); allowed 1", p.EP, m.Name)
	case p.ETP != 0 && p.ETP != p.TP:
		bad("parallel.etp", "is %d but model %s has no experts (a dense model); allowed 0", p.ETP, m.Name)
	case r.Skewed() || r.Skew != "" || r.CapacityFactor != 0 || r.Redundant != 0 || r.HotExperts != 0:
		bad("model.moe.routing", "is set but model %s has no experts (a dense model); give model.moe.experts or an MoE preset", m.Name)
	case s.Model.MoE.AllToAll != "" || s.Model.MoE.DispatchPrecision != "" || s.Model.MoE.Overlap != "":
		bad("model.moe.all_to_all", "model.moe.dispatch_precision and model.moe.overlap describe an expert all-to-all, but model %s has no experts (a dense model); drop them or give an MoE preset", m.Name)
	}
}

// The values of model.moe.all_to_all and model.moe.dispatch_precision.
const (
	allToAllFlat         = "flat"
	allToAllHierarchical = "hierarchical"
	dispatchBF16         = "bf16"
	dispatchFP8          = "fp8"
	overlapNone          = "none"
	overlapTwoMicrobatch = "two-microbatch"
)

// checkSplit refuses a two-microbatch overlap that cannot split: it is
// for runs without a pipeline (a pipelined run overlaps its all-to-alls
// with schedule dualpipev), and it halves each microbatch's sequences.
func checkSplit(s *scenario.Scenario, bad scenario.Reporter) {
	p := s.Parallel
	if s.Model.MoE.Overlap != overlapTwoMicrobatch {
		return
	}
	if p.PP > 1 || p.MicroBatchSize%2 != 0 {
		bad("model.moe.overlap", "is two-microbatch, but parallel.pp is %d and micro_batch_size %d; allowed with pp 1 (a pipeline overlaps with schedule dualpipev) and an even micro_batch_size (split in halves)", p.PP, p.MicroBatchSize)
	}
}

// oneOf refuses key's value v unless it is empty, a or b.
//
//go:noinline
func oneOf(bad scenario.Reporter, key, v, a, b string) {
	if v != "" && v != a && v != b {
		bad(key, "is %q; allowed: %s, %s", v, a, b)
	}
}

// splitField cuts "key: message" into its parts.
func splitField(s string) (field, msg string) {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ':' && s[i+1] == ' ' {
			return s[:i], s[i+2:]
		}
	}
	return "model.moe", s
}

// Bounds on what routing a mixture of experts allocates (moe.go), from
// the moe-skew testdata run (about 1.2 MB in all) and DeepSeek-V3's: the
// dense layer's and the experts' op lists beside the layer's, and per
// routed layer its shares and, under a skewed router, each
// expert-parallel index's expert op list and prices.
const (
	moeListBytes     = 512 << 10
	moeLayerBytes    = 64
	moeSkewedGPUByte = 48 << 10
	// moePairBytes is a DualPipeV op's entry in the overlapped pairs'
	// maps (moe_overlap.go), with the maps' growth.
	moePairBytes = 128
)

// moeWorkBytes bounds the memory route allocates: per MoE layer (and
// multi-token prediction module) its shares, and when the router is
// skewed each expert-parallel index's experts; under DualPipeV the
// overlapped pairs of each device's 2m F's and B's.
func moeWorkBytes(s scenario.Scenario) float64 {
	m, err := s.Model.Resolve()
	if err != nil || !m.IsMoE() {
		return 0
	}
	layers := float64(m.MoELayers() + m.MTP)
	per := float64(moeLayerBytes * m.MoE.Experts)
	if r := s.Model.MoE.Routing; r.Skewed() || r.Redundant > 0 || r.CapacityFactor > 0 {
		per += float64(max(s.Parallel.EP, 1)) * moeSkewedGPUByte * float64(1+(m.MoE.Experts+r.Redundant)/max(s.Parallel.EP, 1)/8)
	}
	pairs := 0.0
	if s.Parallel.Schedule == "dualpipev" || s.Model.MoE.Overlap == overlapTwoMicrobatch {
		pairs = float64(max(s.Parallel.PP, 1)*4*s.Parallel.Microbatches) * moePairBytes
	}
	return moeListBytes + layers*per + pairs
}
