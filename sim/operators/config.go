package operators

import (
	"errors"
	"fmt"
	"strings"

	"paraplay/sim/workload"
)

// Attention implementations.
const (
	// Flash is a fused attention kernel that keeps no s×s tensor (Dao et
	// al. 2022, FlashAttention; Dao 2023, FlashAttention-2; Shah et al.
	// 2024, FlashAttention-3).
	Flash = "flash"
	// Eager is attention as separate kernels that materialise the scores,
	// the layer Korthikanti et al. 2022 account for.
	Eager = "eager"
)

// Config is one GPU's share of a layer: the model, the microbatch and the
// parallel split, the attention kernel, the precision and the
// recomputation policy. The YAML-style names in errors are the ones
// sim/training's scenario uses.
type Config struct {
	// Model is the transformer's shapes: dense or a mixture of experts,
	// ordinary attention or MLA.
	Model workload.Model
	// MicroBatch is b, the sequences per microbatch, at least 1.
	MicroBatch int
	// TP is the tensor-parallel degree t, at least 1, dividing heads,
	// kv_heads and the MLP width.
	TP int
	// SequenceParallel shards norms, dropouts and residuals along the
	// sequence over the tensor-parallel group (Korthikanti et al. 2022).
	SequenceParallel bool
	// CP is the context-parallel degree c, at least 1, dividing seq_len.
	CP int
	// Attention is Flash or Eager.
	Attention string
	// Causal says whether attention is masked causally (decoder
	// training); only flash skips the masked half.
	Causal bool
	// Precision is BF16, FP16 or FP8 (the layer's linear GEMMs in FP8,
	// the rest in BF16).
	Precision DType
	// Recompute is the activation-recomputation policy.
	Recompute workload.Recompute
	// RecomputeModules is what selective recomputation re-runs (0: the
	// attention core alone); only with Recompute selective.
	RecomputeModules Modules
	// FP8Cache keeps DeepSeek-V3's low-precision activations (§3.3.3):
	// a mixture of experts' SwiGLU inputs in FP8, and the attention
	// output once, in 12-bit E5M6, for the output projection and the
	// attention backward alike; only with Precision FP8.
	FP8Cache bool
	// Dropout says whether the layer has dropout after attention scores,
	// the output projection and the MLP (GPT: yes; Llama: no).
	Dropout bool
	// UnfusedGradAccumulation makes each weight-gradient GEMM write a
	// 16-bit gradient that a separate kernel adds into the accumulated
	// gradient (fp32 main_grad, or the fp16 .grad in fp16), as
	// Megatron-LM did before gradient-accumulation fusion
	// (NVIDIA/Megatron-LM commit 83b1e42f30, 2022-02-13); false is the
	// fused GEMM, which accumulates into the fp32 gradient itself.
	UnfusedGradAccumulation bool
	// EP and ETP split a mixture of experts' layer: its experts over EP
	// ranks (0 means 1), each expert's weights ETP ways (0 means TP,
	// Megatron-Core's default). Layer's expert GEMMs take the balanced
	// load; Experts prices any other.
	EP, ETP int
	// DenseMLP builds one of a mixture of experts' dense first layers
	// (model.moe.dense_layers).
	DenseMLP bool
}

// addf appends to errs the error "prefix: " + format of args, the package. It is not inlined: the
// validators' closures call it from dozens of places, and an inlined
// fmt.Errorf at each costs the browser's download a few hundred bytes.
//
//go:noinline
func addf(errs []error, prefix, format string, args []any) []error {
	return append(errs, fmt.Errorf("%s: %s", prefix, fmt.Sprintf(format, args...)))
}

// etp is the expert tensor-parallel degree: ETP, or TP when it is 0.
func (c Config) etp() int {
	if c.ETP == 0 {
		return c.TP
	}
	return c.ETP
}

// ep is the expert-parallel degree: EP, or 1 when it is 0.
func (c Config) ep() int { return max(c.EP, 1) }

// moeLayer reports whether the layer c describes is a mixture of experts.
func (c Config) moeLayer() bool { return c.Model.IsMoE() && !c.DenseMLP }

// Validate reports every problem with c at once, joined, each naming the
// field and the range it must be in.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = addf(errs, "operators", format, args) }
	if err := c.Model.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.Model.IsMoE() {
		if e := c.Model.MoE.Experts; c.EP < 0 || e%c.ep() != 0 {
			bad("parallel.ep = %d, want a divisor of model %s's %d experts", c.EP, c.Model.Name, e)
		}
		if c.ETP < 0 || (c.TP >= 1 && c.etp() > c.TP) {
			bad("parallel.etp = %d, want 1..parallel.tp (%d), or 0 for tp", c.ETP, c.TP)
		} else if err := c.Model.ValidateExpertSplit(c.etp()); err != nil {
			errs = append(errs, err)
		}
	} else if c.EP > 1 || c.ETP > 1 || c.DenseMLP {
		bad("parallel.ep %d, parallel.etp %d and a dense MLP layer need a mixture of experts; model %s is dense", c.EP, c.ETP, c.Model.Name)
	}
	if c.MicroBatch < 1 {
		bad("micro_batch_size = %d, want at least 1", c.MicroBatch)
	}
	if c.TP < 1 || c.CP < 1 {
		bad("parallel.tp = %d and parallel.cp = %d, want at least 1", c.TP, c.CP)
	} else if err := c.Model.ValidateSplit(c.TP, c.CP); err != nil {
		errs = append(errs, err)
	} else if c.SequenceParallel && (c.Model.SeqLen/c.CP)%c.TP != 0 {
		bad("sequence parallelism needs seq_len/cp = %d divisible by parallel.tp = %d", c.Model.SeqLen/c.CP, c.TP)
	}
	switch c.Attention {
	case Flash:
	case Eager:
		if c.Model.IsMLA() {
			bad("model.attention %q with model %s's MLA: its value heads differ from its query heads; want %q", Eager, c.Model.Name, Flash)
		}
		if c.CP > 1 {
			bad("model.attention %q with parallel.cp = %d: context parallelism runs ring attention, which needs %q", Eager, c.CP, Flash)
		}
	default:
		bad("model.attention %q, want %q or %q", c.Attention, Flash, Eager)
	}
	if c.Precision != BF16 && c.Precision != FP16 && c.Precision != FP8 {
		bad("training.precision %q, want bf16, fp16 or fp8", c.Precision)
	}
	if !c.Recompute.Valid() {
		bad("training.recompute %q, want none, selective or full", c.Recompute)
	}
	if c.FP8Cache && (c.Precision != FP8 || c.Attention != Flash) {
		bad("training.fp8_activation_cache needs training.precision fp8 and flash attention, not %q and %q", c.Precision, c.Attention)
	}
	if m := c.RecomputeModules; m != 0 {
		switch {
		case c.Recompute != workload.RecomputeSelective:
			bad("parallel.recompute_modules %q needs parallel.recompute selective, not %q", m, c.Recompute)
		case m >= MLAUpProj<<1:
			bad("parallel.recompute_modules %d, want a set of %s", uint8(m), strings.Join(moduleNames[:], ", "))
		case m&MLAUpProj != 0 && !c.Model.IsMLA():
			bad("parallel.recompute_modules mla_up_proj needs multi-head latent attention; model %s has none", c.Model.Name)
		case m&MoEAct != 0 && !c.Model.IsMoE():
			bad("parallel.recompute_modules moe_act needs a mixture of experts; model %s is dense", c.Model.Name)
		}
	}
	return errors.Join(errs...)
}

// shape is a Config's sizes on one GPU, in float64 for the counts.
type shape struct {
	b, s, h, heads, kvHeads, d, f float64
	dv                            float64 // a value head's width (d, or MLA's)
	t, c                          float64
	tokens                        float64 // b·s/c: the tokens a GEMM sees
	local                         float64 // tokens/t with SP, else tokens: what norms and residuals see
	act                           float64 // bytes of a 16-bit activation
	linear                        DType   // the dtype of the layer's linear GEMMs
	unfusedAcc                    bool    // Config.UnfusedGradAccumulation
	mainGrad                      float64 // bytes of the gradient it accumulates into: 2 in fp16, else 4
	bias                          bool    // the model's linear layers carry biases (workload.Model.Bias)
}

func shapeOf(c Config) shape {
	m := c.Model
	sh := shape{
		b: float64(c.MicroBatch), s: float64(m.SeqLen), h: float64(m.Hidden),
		heads: float64(m.Heads / c.TP), kvHeads: float64(m.KVHeadCount() / c.TP),
		d: float64(m.HeadDim()), dv: float64(m.VHeadDim()), f: float64(m.FFNWidth() / c.TP),
		t: float64(c.TP), c: float64(c.CP), act: 2, linear: c.Precision,
		unfusedAcc: c.UnfusedGradAccumulation, mainGrad: FP32.Bytes(), bias: m.Bias,
	}
	if c.Precision == FP16 {
		sh.mainGrad = FP16.Bytes()
	}
	sh.tokens = sh.b * sh.s / sh.c
	sh.local = sh.tokens
	if c.SequenceParallel {
		sh.local = sh.tokens / sh.t
	}
	return sh
}

// activationDType is the 16-bit format of everything but FP8 GEMMs.
func (c Config) activationDType() DType {
	if c.Precision == FP16 {
		return FP16
	}
	return BF16
}

// actDType is the 16-bit format of the activations and their gradients:
// Config.activationDType from the shape.
func (sh shape) actDType() DType {
	if sh.linear == FP16 {
		return FP16
	}
	return BF16
}
