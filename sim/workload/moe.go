package workload

// Routers: how a mixture of experts picks a token's experts.
const (
	// RouterTopK sends each token to its top_k experts by router score
	// (Shazeer et al. 2017; Lepikhin et al. 2020, GShard).
	RouterTopK = "topk"
	// RouterGroupLimited first picks each token's top_groups of the
	// expert groups, then its top_k experts inside them: DeepSeek-V3's
	// node-limited routing (DeepSeek-AI 2024, §2.1.2: at most M = 4 nodes
	// per token, with its 256 experts in 8 groups of 32, one per node).
	RouterGroupLimited = "group-limited"
)

// MoE is the mixture of experts that replaces the dense MLP of a model's
// layers. The zero value is a dense model. YAML names with each field.
type MoE struct {
	// Experts is the routed experts per MoE layer (experts); 0 or 1 means
	// a dense model.
	Experts int `yaml:"experts,omitempty" json:"experts,omitempty"`
	// TopK is how many routed experts each token goes to (top_k), in
	// [1, Experts].
	TopK int `yaml:"top_k,omitempty" json:"top_k,omitempty"`
	// ExpertFFNHidden is each expert's inner width (expert_ffn_hidden); 0
	// means ffn_hidden (Mixtral's experts are full-width MLPs; DeepSeek's
	// fine-grained experts are 2,048 wide beside a dense width of 18,432).
	ExpertFFNHidden int `yaml:"expert_ffn_hidden,omitempty" json:"expert_ffn_hidden,omitempty"`
	// SharedExperts is the experts every token goes to besides its routed
	// ones (shared_experts), each expert_ffn_hidden wide (DeepSeekMoE's
	// shared expert isolation; DeepSeek-V3 has 1).
	SharedExperts int `yaml:"shared_experts,omitempty" json:"shared_experts,omitempty"`
	// DenseLayers is how many of the first layers keep a dense MLP of
	// ffn_hidden (dense_layers; DeepSeek-V3's first 3).
	DenseLayers int `yaml:"dense_layers,omitempty" json:"dense_layers,omitempty"`
	// Router is RouterTopK (also when empty) or RouterGroupLimited.
	Router string `yaml:"router,omitempty" json:"router,omitempty"`
	// Groups is the expert groups of a group-limited router (groups), a
	// divisor of Experts; TopGroups how many a token may use (top_groups).
	Groups    int `yaml:"groups,omitempty" json:"groups,omitempty"`
	TopGroups int `yaml:"top_groups,omitempty" json:"top_groups,omitempty"`
}

// IsMoE reports whether the model's MLPs are mixtures of experts.
func (m Model) IsMoE() bool { return m.MoE.Experts > 1 }

// ExpertWidth is each expert's inner width: expert_ffn_hidden, or
// FFNWidth when it is 0.
func (m Model) ExpertWidth() int {
	if m.MoE.ExpertFFNHidden == 0 {
		return m.FFNWidth()
	}
	return m.MoE.ExpertFFNHidden
}

// MoELayers is how many of the layers are mixtures of experts: all but the
// first dense_layers, or none in a dense model.
func (m Model) MoELayers() int {
	if !m.IsMoE() {
		return 0
	}
	return max(0, m.Layers-m.MoE.DenseLayers)
}

// IsMoELayer reports whether layer i (from 0) is a mixture of experts.
func (m Model) IsMoELayer(i int) bool { return m.IsMoE() && i >= m.MoE.DenseLayers }

// moeLayersIn is how many of the layers from, from+1, …, from+n−1 are
// mixtures of experts.
func (m Model) moeLayersIn(from, n int) int {
	if !m.IsMoE() || n <= 0 {
		return 0
	}
	lo := max(from, m.MoE.DenseLayers)
	return max(0, from+n-lo)
}

func (m Model) validateMoE() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = addf(errs, "model "+m.Name, "moe."+format, args) }
	x := m.MoE
	if x.Experts < 0 || x.ExpertFFNHidden < 0 || x.SharedExperts < 0 || x.DenseLayers < 0 || x.TopK < 0 {
		bad("experts %d, top_k %d, expert_ffn_hidden %d, shared_experts %d, dense_layers %d: want none negative",
			x.Experts, x.TopK, x.ExpertFFNHidden, x.SharedExperts, x.DenseLayers)
		return errs
	}
	if !m.IsMoE() {
		if x != (MoE{}) && x.Experts == 0 {
			bad("experts = 0 with other moe keys set: want experts ≥ 2 (or no moe keys for a dense model)")
		} else if x.Experts == 1 {
			bad("experts = 1, want 0 (dense) or at least 2")
		}
		return errs
	}
	if x.TopK < 1 || x.TopK > x.Experts {
		bad("top_k = %d, want 1..experts (%d)", x.TopK, x.Experts)
	}
	if x.DenseLayers >= m.Layers && m.Layers > 0 {
		bad("dense_layers = %d, want fewer than layers (%d)", x.DenseLayers, m.Layers)
	}
	switch x.Router {
	case "", RouterTopK:
		if x.Groups != 0 || x.TopGroups != 0 {
			bad("groups and top_groups need router %q", RouterGroupLimited)
		}
	case RouterGroupLimited:
		if x.Groups < 1 || x.Experts%x.Groups != 0 {
			bad("groups = %d, want a divisor of experts (%d)", x.Groups, x.Experts)
		} else if x.TopGroups < 1 || x.TopGroups > x.Groups || x.TopGroups*(x.Experts/x.Groups) < x.TopK {
			bad("top_groups = %d, want 1..groups (%d) holding at least top_k (%d) experts", x.TopGroups, x.Groups, x.TopK)
		}
	default:
		bad("router %q, want %q or %q", x.Router, RouterTopK, RouterGroupLimited)
	}
	return errs
}

// moeLayerParams is one MoE layer's MLP: the routed and shared experts
// and the router's h·experts (bias-free, as Mixtral's, DeepSeek's and
// Switch's).
func moeLayerParams(m Model) int64 {
	e := expertParams(m, m.ExpertWidth())
	return int64(m.MoE.Experts+m.MoE.SharedExperts)*e + int64(m.Hidden)*int64(m.MoE.Experts)
}

// unusedExperts is what one token does not touch of an MoE layer: the
// routed experts beyond its top_k.
func unusedExperts(m Model) int64 {
	return int64(m.MoE.Experts-m.MoE.TopK) * expertParams(m, m.ExpertWidth())
}

// MoELayersIn is how many of stage st's layers are mixtures of experts.
func MoELayersIn(m Model, st Stage) int { return m.moeLayersIn(st.From, st.Layers) }
