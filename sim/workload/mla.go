package workload

import "fmt"

// MLA is multi-head latent attention (DeepSeek-AI 2024, "DeepSeek-V2",
// §2.1; DeepSeek-V3 §2.1.1): keys and values are rebuilt per head from one
// low-rank latent of each token, queries from another, and a narrow
// rotary part of every query and a rotary key shared by the heads carry
// the positions ("decoupled RoPE"). The zero value is ordinary attention.
// Training runs the up-projections explicitly (no weight absorption, which
// is an inference trick). YAML names with each field.
type MLA struct {
	// KVLoRARank is d_c, the key-value latent's width (kv_lora_rank); 0
	// means no MLA.
	KVLoRARank int `yaml:"kv_lora_rank,omitempty" json:"kv_lora_rank,omitempty"`
	// QLoRARank is d_c′, the query latent's width (q_lora_rank); 0
	// projects queries from the hidden state directly (DeepSeek-V2-Lite).
	QLoRARank int `yaml:"q_lora_rank,omitempty" json:"q_lora_rank,omitempty"`
	// RopeHeadDim is d_h^R, the rotary part of each query head and of the
	// shared rotary key (rope_head_dim).
	RopeHeadDim int `yaml:"rope_head_dim,omitempty" json:"rope_head_dim,omitempty"`
	// NopeHeadDim is d_h, the rest of each query and key head
	// (nope_head_dim).
	NopeHeadDim int `yaml:"nope_head_dim,omitempty" json:"nope_head_dim,omitempty"`
	// VHeadDim is each value head's width (v_head_dim).
	VHeadDim int `yaml:"v_head_dim,omitempty" json:"v_head_dim,omitempty"`
}

// IsMLA reports whether the model's attention is multi-head latent
// attention.
func (m Model) IsMLA() bool { return m.MLA.KVLoRARank > 0 }

// VHeadDim is the width of one value head: v_head_dim under MLA, else
// HeadDim.
func (m Model) VHeadDim() int {
	if m.IsMLA() {
		return m.MLA.VHeadDim
	}
	return m.HeadDim()
}

func (m Model) validateMLA() []error {
	x := m.MLA
	if x == (MLA{}) {
		return nil
	}
	if x.KVLoRARank < 1 || x.QLoRARank < 0 || x.RopeHeadDim < 1 || x.NopeHeadDim < 1 || x.VHeadDim < 1 {
		return []error{fmt.Errorf("model %s: mla: kv_lora_rank %d, q_lora_rank %d, rope_head_dim %d, nope_head_dim %d, v_head_dim %d: want all at least 1 (q_lora_rank 0 = no query latent)",
			m.Name, x.KVLoRARank, x.QLoRARank, x.RopeHeadDim, x.NopeHeadDim, x.VHeadDim)}
	}
	return nil
}

// mlaWeights splits an MLA layer's projection weights into those every
// tensor-parallel GPU holds whole (the down-projections to the latents and
// the latents' RMSNorms, as Megatron-Core duplicates them) and those split
// over the heads (the up-projections and the output projection).
func mlaWeights(m Model) (replicated, split int64) {
	h, heads := int64(m.Hidden), int64(m.Heads)
	x := m.MLA
	qk := int64(m.HeadDim())
	kv, q, rope, v := int64(x.KVLoRARank), int64(x.QLoRARank), int64(x.RopeHeadDim), int64(x.VHeadDim)
	replicated = h*(kv+rope) + kv // kv_a_proj_with_mqa, kv_a_layernorm
	split = kv*heads*(int64(x.NopeHeadDim)+v) + heads*v*h
	if q > 0 {
		replicated += h*q + q // q_a_proj, q_a_layernorm
		split += q * heads * qk
	} else {
		split += h * heads * qk
	}
	return replicated, split
}

// mlaFLOPs is an MLA layer's forward matmuls on one GPU for tokens tokens
// under tensor parallelism t: the projections (the replicated
// down-projections on every GPU, the rest split t ways), the attention
// core over s keys (QKᵀ at the query-key width, P·V at the value width,
// no causal halving, as the dense closed form) and the output projection.
func mlaFLOPs(m Model, tokens, s, t float64) (qkv, attention, projection float64) {
	x := m.MLA
	h, heads := float64(m.Hidden), float64(m.Heads)
	qk, v := float64(m.HeadDim()), float64(x.VHeadDim)
	kv, q, rope := float64(x.KVLoRARank), float64(x.QLoRARank), float64(x.RopeHeadDim)
	down := h * (kv + rope)
	up := kv * heads * (float64(x.NopeHeadDim) + v)
	if q > 0 {
		down += h * q
		up += q * heads * qk
	} else {
		up += h * heads * qk
	}
	qkv = 2 * tokens * (down + up/t)
	attention = 2 * tokens * s * heads * (qk + v) / t
	projection = 2 * tokens * heads * v * h / t
	return qkv, attention, projection
}
