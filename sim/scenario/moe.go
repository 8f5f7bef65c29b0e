package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"paraplay/sim/moe"
	"paraplay/sim/workload"
)

// MoE is a training scenario's mixture of experts (model.moe): overrides
// of the preset's experts (0 = the preset's) and how the router spreads
// tokens (package moe).
type MoE struct {
	// Experts, TopK, ExpertFFNHidden, SharedExperts and DenseLayers
	// override the preset's experts, choices per token, expert width,
	// shared experts and dense first layers (workload.MoE).
	Experts, TopK, ExpertFFNHidden, SharedExperts, DenseLayers int
	// Router is topk or group-limited ("" = the preset's), with Groups
	// and TopGroups (0 = the preset's).
	Router            string
	Groups, TopGroups int
	// Routing is the router's skew, the capacity factor and EPLB's
	// redundant experts.
	Routing moe.Routing
	// AllToAll is how the dispatch and combine cross the fabric
	// (all_to_all): flat (also when empty; every GPU sends every other its
	// copies) or hierarchical (DeepEP: once across the network per
	// destination node, to the GPU on the sender's rail, then over NVLink).
	AllToAll string
	// DispatchPrecision is the dispatch's element type
	// (dispatch_precision): bf16 (also when empty) or fp8 (DeepSeek-V3: a
	// byte per element and a scale per 128); the combine stays BF16.
	DispatchPrecision string
	// Overlap is how a run without a pipeline hides its all-to-alls
	// (overlap): none (also when empty) or two-microbatch (each
	// microbatch split into two halves of micro_batch_size/2 sequences,
	// one half's dispatch and combine running under the other's compute).
	Overlap string
}

// resolveMoE applies the mixture-of-experts, MLA and MTP overrides to w.
func (m Model) resolveMoE(w *workload.Model, set func(*int, int)) {
	x := m.MoE
	set(&w.MoE.Experts, x.Experts)
	set(&w.MoE.TopK, x.TopK)
	set(&w.MoE.ExpertFFNHidden, x.ExpertFFNHidden)
	set(&w.MoE.SharedExperts, x.SharedExperts)
	set(&w.MoE.DenseLayers, x.DenseLayers)
	set(&w.MoE.Groups, x.Groups)
	set(&w.MoE.TopGroups, x.TopGroups)
	if x.Router != "" {
		w.MoE.Router = x.Router
	}
	set(&w.MLA.KVLoRARank, m.MLA.KVLoRARank)
	set(&w.MLA.QLoRARank, m.MLA.QLoRARank)
	set(&w.MLA.RopeHeadDim, m.MLA.RopeHeadDim)
	set(&w.MLA.NopeHeadDim, m.MLA.NopeHeadDim)
	set(&w.MLA.VHeadDim, m.MLA.VHeadDim)
	set(&w.MTP, m.MTP)
}

// moeFields are the keys of a mixture of experts, MLA and multi-token
// prediction.
var moeFields = []Field{
	intField("model.moe.experts", "experts", func(s *Scenario) *int { return &s.Model.MoE.Experts }),
	intField("model.moe.top_k", "top_k", func(s *Scenario) *int { return &s.Model.MoE.TopK }),
	intField("model.moe.expert_ffn_hidden", "expert_ffn_hidden", func(s *Scenario) *int { return &s.Model.MoE.ExpertFFNHidden }),
	intField("model.moe.shared_experts", "shared_experts", func(s *Scenario) *int { return &s.Model.MoE.SharedExperts }),
	intField("model.moe.dense_layers", "dense_layers", func(s *Scenario) *int { return &s.Model.MoE.DenseLayers }),
	stringField("model.moe.router", "router", "topk or group-limited", func(s *Scenario) *string { return &s.Model.MoE.Router }),
	intField("model.moe.groups", "groups", func(s *Scenario) *int { return &s.Model.MoE.Groups }),
	intField("model.moe.top_groups", "top_groups", func(s *Scenario) *int { return &s.Model.MoE.TopGroups }),
	floatField("model.moe.capacity_factor", "capacity_factor", "e.g. 1.25 (0 = dropless)", func(s *Scenario) *float64 { return &s.Model.MoE.Routing.CapacityFactor }),
	stringField("model.moe.all_to_all", "all_to_all", "flat or hierarchical", func(s *Scenario) *string { return &s.Model.MoE.AllToAll }),
	stringField("model.moe.dispatch_precision", "dispatch_precision", "bf16 or fp8", func(s *Scenario) *string { return &s.Model.MoE.DispatchPrecision }),
	stringField("model.moe.overlap", "moe_overlap", "none or two-microbatch", func(s *Scenario) *string { return &s.Model.MoE.Overlap }),
	intField("model.moe.redundant", "redundant", func(s *Scenario) *int { return &s.Model.MoE.Routing.Redundant }),
	stringField("model.moe.routing.skew", "skew", "balanced, lognormal or zipf", func(s *Scenario) *string { return &s.Model.MoE.Routing.Skew }),
	floatField("model.moe.routing.cv", "routing_cv", "e.g. 0.5", func(s *Scenario) *float64 { return &s.Model.MoE.Routing.CV }),
	floatField("model.moe.routing.s", "zipf_s", "e.g. 1.1", func(s *Scenario) *float64 { return &s.Model.MoE.Routing.S }),
	intField("model.moe.routing.hot_experts", "hot_experts", func(s *Scenario) *int { return &s.Model.MoE.Routing.HotExperts }),
	{"model.moe.routing.histogram", "histogram", "one relative load per expert, e.g. 4,1,1,1,1,1,1,1",
		func(s *Scenario) string { return formatSpeeds(s.Model.MoE.Routing.Histogram) },
		func(s *Scenario, v string) error { return assign(&s.Model.MoE.Routing.Histogram, v, parseHistogram) }},
	intField("model.mla.kv_lora_rank", "kv_lora_rank", func(s *Scenario) *int { return &s.Model.MLA.KVLoRARank }),
	intField("model.mla.q_lora_rank", "q_lora_rank", func(s *Scenario) *int { return &s.Model.MLA.QLoRARank }),
	intField("model.mla.rope_head_dim", "rope_head_dim", func(s *Scenario) *int { return &s.Model.MLA.RopeHeadDim }),
	intField("model.mla.nope_head_dim", "nope_head_dim", func(s *Scenario) *int { return &s.Model.MLA.NopeHeadDim }),
	intField("model.mla.v_head_dim", "v_head_dim", func(s *Scenario) *int { return &s.Model.MLA.VHeadDim }),
	intField("model.mtp", "mtp", func(s *Scenario) *int { return &s.Model.MTP }),
}

//go:noinline
func floatField(key, param, help string, at func(*Scenario) *float64) Field {
	return Field{key, param, help, func(s *Scenario) string { return strconv.FormatFloat(*at(s), 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, at(s)) }}
}

// maxHistogram bounds model.moe.routing.histogram's list.
const maxHistogram = 4096

// parseHistogram reads a comma-separated list of relative loads; an empty
// string is no list.
func parseHistogram(v string) ([]float64, error) {
	if v = strings.TrimSpace(v); v == "" {
		return nil, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > maxHistogram {
		return nil, fmt.Errorf("lists %d loads; at most %d allowed", len(parts), maxHistogram)
	}
	out := make([]float64, len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("invalid load %q: want numbers separated by commas, e.g. 4,1,1,1", p)
		}
		out[i] = f
	}
	return out, nil
}
