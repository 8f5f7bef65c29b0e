package workload

import (
	"errors"
	"fmt"
	"strings"
)

// FFN kinds: the two feed-forward blocks the presets use.
const (
	// FFNGeLU is GPT's MLP: h → ffn_hidden (GeLU) → h, two weight matrices.
	FFNGeLU = "gelu"
	// FFNSwiGLU is Llama's gated MLP (Shazeer 2020): gate and up projections
	// h → ffn_hidden, SiLU(gate)·up, then down ffn_hidden → h: three matrices.
	FFNSwiGLU = "swiglu"
)

// Norm kinds.
const (
	// NormLayer is LayerNorm with a weight and a bias per channel (2h).
	NormLayer = "layernorm"
	// NormRMS is RMSNorm with a weight per channel only (h).
	NormRMS = "rmsnorm"
)

// Position-embedding kinds.
const (
	// PositionLearned is a learned table of seq_len × hidden (GPT-2/3).
	PositionLearned = "learned"
	// PositionRoPE is rotary embedding (Su et al. 2021): no parameters.
	PositionRoPE = "rope"
)

// Model is a decoder-only transformer: the shapes that parameter counts,
// FLOPs and activation memory are computed from. The YAML/JSON names are
// given with each field.
type Model struct {
	// Name is the preset's key (name): lower-case words joined by hyphens,
	// e.g. "llama3-8b".
	Name string `yaml:"name" json:"name"`
	// Layers is the number of transformer layers l (layers).
	Layers int `yaml:"layers" json:"layers"`
	// Hidden is the model width h (hidden); it must be divisible by Heads.
	Hidden int `yaml:"hidden" json:"hidden"`
	// Heads is the number of attention (query) heads a (heads).
	Heads int `yaml:"heads" json:"heads"`
	// KVHeads is the number of key/value heads (kv_heads) for grouped-query
	// attention (Ainslie et al. 2023); 0 means Heads (multi-head
	// attention). Heads must be a multiple of it.
	KVHeads int `yaml:"kv_heads,omitempty" json:"kv_heads,omitempty"`
	// FFNHidden is the inner width of the dense MLP (ffn_hidden); 0 means
	// 4·Hidden, which only a GeLU MLP may leave implicit.
	FFNHidden int `yaml:"ffn_hidden,omitempty" json:"ffn_hidden,omitempty"`
	// FFN is the MLP kind (ffn): "gelu" (GPT, plain 4h) or "swiglu"
	// (Llama, gated).
	FFN string `yaml:"ffn" json:"ffn"`
	// Norm is the normalisation (norm): "layernorm" (GPT) or "rmsnorm"
	// (Llama).
	Norm string `yaml:"norm" json:"norm"`
	// Bias says whether linear layers carry biases (bias): true for GPT,
	// false for Llama.
	Bias bool `yaml:"bias" json:"bias"`
	// Position is the position embedding (position): "learned" (a
	// seq_len × hidden table, GPT) or "rope" (no parameters, Llama).
	Position string `yaml:"position" json:"position"`
	// TiedEmbeddings says whether the output head reuses the input
	// embedding matrix (tied_embeddings): true for GPT, false for Llama.
	TiedEmbeddings bool `yaml:"tied_embeddings" json:"tied_embeddings"`
	// Vocab is the vocabulary size V (vocab).
	Vocab int `yaml:"vocab" json:"vocab"`
	// SeqLen is the training sequence length s (seq_len); with learned
	// positions it is also the size of the position table.
	SeqLen int `yaml:"seq_len" json:"seq_len"`
	// HeadDimension is the width of one attention head (head_dim); 0
	// means hidden/heads. Qwen3 and gpt-oss set it: their query heads
	// are wider in total than the hidden state.
	HeadDimension int `yaml:"head_dim,omitempty" json:"head_dim,omitempty"`
	// MoE makes the MLPs mixtures of experts (moe); zero: a dense model.
	MoE MoE `yaml:"moe,omitempty" json:"moe,omitempty"`
	// MLA makes attention multi-head latent attention (mla); zero:
	// ordinary (multi-head or grouped-query) attention.
	MLA MLA `yaml:"mla,omitempty" json:"mla,omitempty"`
	// MTP is the multi-token prediction modules trained beside the model
	// (mtp; DeepSeek-V3 §2.2 trains 1): each adds an MoE layer, a 2h → h
	// projection and another pass through the shared output head, on the
	// last pipeline stage. 0: none.
	MTP int `yaml:"mtp,omitempty" json:"mtp,omitempty"`
	// PublishedParams is the parameter count the source prints (e.g. 8.03e9),
	// kept to check the exact count against; 0 for models without one.
	PublishedParams float64 `yaml:"published_params,omitempty" json:"published_params,omitempty"`
	// PublishedActive is the active parameter count the source prints
	// for a mixture of experts (see ActiveParams); 0 for others.
	PublishedActive float64 `yaml:"published_active,omitempty" json:"published_active,omitempty"`
	// Source cites where the shapes and the published counts come from.
	Source string `yaml:"source,omitempty" json:"source,omitempty"`
}

// KVHeadCount is the number of key/value heads: KVHeads, or Heads when
// KVHeads is 0.
func (m Model) KVHeadCount() int {
	if m.KVHeads == 0 {
		return m.Heads
	}
	return m.KVHeads
}

// HeadDim is the width of one query or key head: MLA's nope + rope
// widths, head_dim, or Hidden/Heads.
func (m Model) HeadDim() int {
	if m.IsMLA() {
		return m.MLA.NopeHeadDim + m.MLA.RopeHeadDim
	}
	if m.HeadDimension > 0 {
		return m.HeadDimension
	}
	return m.Hidden / m.Heads
}

// FFNWidth is the dense MLP's inner width: FFNHidden, or 4·Hidden when it
// is 0.
func (m Model) FFNWidth() int {
	if m.FFNHidden == 0 {
		return 4 * m.Hidden
	}
	return m.FFNHidden
}

// IsGPTStyle reports whether m has exactly the layer that Narayanan et al.
// 2021 count in their closed forms: multi-head attention, a plain 4h GeLU
// MLP, LayerNorm, biases, learned positions, tied embeddings, no experts.
func (m Model) IsGPTStyle() bool {
	return m.KVHeadCount() == m.Heads && m.FFN == FFNGeLU && m.FFNWidth() == 4*m.Hidden &&
		m.Norm == NormLayer && m.Bias && m.Position == PositionLearned && m.TiedEmbeddings && !m.IsMoE()
}

// Validate reports every problem with m at once, joined, each naming the
// field by its YAML name and the range it must be in.
func (m Model) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = addf(errs, "model "+m.Name, format, args) }
	if err := validName(m.Name); err != nil {
		bad("name: %v", err)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"layers", m.Layers}, {"hidden", m.Hidden}, {"heads", m.Heads}, {"vocab", m.Vocab}, {"seq_len", m.SeqLen}} {
		if f.v < 1 {
			bad("%s = %d, want at least 1", f.name, f.v)
		}
	}
	if m.Heads >= 1 && m.HeadDimension == 0 && !m.IsMLA() && m.Hidden%m.Heads != 0 {
		bad("hidden %d must be divisible by heads %d (or head_dim set)", m.Hidden, m.Heads)
	}
	if m.HeadDimension < 0 || m.MTP < 0 || m.MTP > 8 {
		bad("head_dim = %d and mtp = %d, want head_dim ≥ 0 (0 = hidden/heads) and mtp 0..8", m.HeadDimension, m.MTP)
	}
	if m.MTP > 0 && !m.IsMoE() {
		bad("mtp = %d needs a mixture of experts (its modules are MoE layers)", m.MTP)
	}
	if m.KVHeads < 0 || m.KVHeads > m.Heads || (m.KVHeads > 0 && m.Heads%m.KVHeads != 0) {
		bad("kv_heads = %d, want 0 (= heads) or a divisor of heads %d", m.KVHeads, m.Heads)
	}
	switch m.FFN {
	case FFNGeLU:
	case FFNSwiGLU:
		if m.FFNHidden == 0 {
			bad("ffn_hidden must be set for ffn %q (only gelu defaults to 4·hidden)", m.FFN)
		}
	default:
		bad("ffn %q, want %q or %q", m.FFN, FFNGeLU, FFNSwiGLU)
	}
	if m.FFNHidden < 0 {
		bad("ffn_hidden = %d, want 0 (= 4·hidden) or positive", m.FFNHidden)
	}
	if m.Norm != NormLayer && m.Norm != NormRMS {
		bad("norm %q, want %q or %q", m.Norm, NormLayer, NormRMS)
	}
	if m.Position != PositionLearned && m.Position != PositionRoPE {
		bad("position %q, want %q or %q", m.Position, PositionLearned, PositionRoPE)
	}
	errs = append(errs, m.validateMoE()...)
	errs = append(errs, m.validateMLA()...)
	if m.PublishedParams < 0 || m.PublishedActive < 0 {
		bad("published_params = %v and published_active = %v, want 0 (unknown) or positive", m.PublishedParams, m.PublishedActive)
	}
	return errors.Join(errs...)
}

// ValidateSplit reports whether m can be split t ways by tensor
// parallelism and c ways by context parallelism as Megatron-LM does:
// heads, kv_heads and the MLP width divide by t (Shoeybi et al. 2019), and
// the sequence divides by c.
func (m Model) ValidateSplit(t, c int) error {
	if t < 1 || c < 1 {
		return fmt.Errorf("model %s: tensor parallel %d and context parallel %d must be at least 1", m.Name, t, c)
	}
	var errs []error
	if m.Heads%t != 0 {
		errs = append(errs, fmt.Errorf("model %s: heads %d not divisible by tensor parallel %d", m.Name, m.Heads, t))
	}
	if m.KVHeadCount()%t != 0 {
		errs = append(errs, fmt.Errorf("model %s: kv_heads %d not divisible by tensor parallel %d", m.Name, m.KVHeadCount(), t))
	}
	dense := !m.IsMoE() || m.MoE.DenseLayers > 0
	if (dense && m.FFNWidth()%t != 0) || (m.MoE.SharedExperts > 0 && m.ExpertWidth()%t != 0) {
		errs = append(errs, fmt.Errorf("model %s: MLP width not divisible by tensor parallel %d", m.Name, t))
	}
	if m.SeqLen%c != 0 {
		errs = append(errs, fmt.Errorf("model %s: seq_len %d not divisible by context parallel %d", m.Name, m.SeqLen, c))
	}
	return errors.Join(errs...)
}

// ValidateExpertSplit reports whether each expert of m can be split etp
// ways by expert tensor parallelism (its inner width divides by etp).
func (m Model) ValidateExpertSplit(etp int) error {
	if m.IsMoE() && (etp < 1 || m.ExpertWidth()%etp != 0) {
		return fmt.Errorf("model %s: expert width %d not divisible by expert tensor parallel %d", m.Name, m.ExpertWidth(), etp)
	}
	return nil
}

// addf appends to errs the error "prefix: " + format of args, where the
// prefix is a Sprintf of its own (a model's name). It is not inlined: the
// validators' closures call it from dozens of places, and an inlined
// fmt.Errorf at each costs the browser's download a few hundred bytes.
//
//go:noinline
func addf(errs []error, prefix, format string, args []any) []error {
	return append(errs, fmt.Errorf("%s: %s", prefix, fmt.Sprintf(format, args...)))
}

// validName accepts lower-case words of letters, digits and dots joined by
// single hyphens ("megatron-1.7b"), the form of every preset name.
func validName(name string) error {
	if name == "" {
		return fmt.Errorf("name is empty")
	}
	for _, word := range strings.Split(name, "-") {
		if word == "" {
			return fmt.Errorf("name %q: hyphens must join non-empty words", name)
		}
		for _, r := range word {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '.' {
				return fmt.Errorf("name %q: want lower-case letters, digits, dots and hyphens", name)
			}
		}
	}
	return nil
}
