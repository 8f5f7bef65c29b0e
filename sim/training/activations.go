package training

import (
	"sync"

	"paraplay/sim/operators"
	"paraplay/sim/workload"
)

// activations works out the activation memory one microbatch leaves on a GPU:
// per layer, and on top of its layers on the first model stage (the
// embedding's) and the last (the output head's and the loss's).
//
// Eager attention on a dense model is Korthikanti et al. 2022's
// accounting, exactly (workload.ActivationBytesPerLayerCP; the paper
// leaves out the embedding and the head). Otherwise it is what each kernel
// of the layer's operator list keeps for its backward pass (package
// operators: no s×s tensor under FlashAttention, the fp32 logsumexp and
// norm statistics, GQA's smaller K and V, SwiGLU's three matrices, MLA's
// latents, a mixture of experts' routed rows at balanced routing), with
// the embedding's dropout mask and the head's fp32 softmax for the
// cross-entropy. A skewed router moves rows between the GPUs of an
// expert-parallel group (moe.go).
func (c *costs) activations(eager bool, precision operators.DType) (activations, error) {
	m, p := c.model, c.par
	r := workload.Recompute(p.Recompute)
	attention := operators.Flash
	if eager {
		attention = operators.Eager
	}
	cfg := operators.Config{Model: m, MicroBatch: p.MicroBatchSize, TP: p.TP, SequenceParallel: p.SequenceParallel, CP: p.CP,
		Attention: attention, Causal: true, Precision: precision, Recompute: r,
		// Megatron trains GPT with dropout; Llama trains without (Touvron
		// et al. 2023; Dubey et al. 2024).
		Dropout: m.FFN == "gelu", UnfusedGradAccumulation: c.unfusedAcc}
	if m.IsMoE() {
		cfg.EP, cfg.ETP = p.EP, p.ETP
	}
	// Validation has read the list (scenario.go).
	cfg.RecomputeModules, _ = operators.ParseModules(p.RecomputeModules)
	cfg.FP8Cache = c.fp8Cache
	if eager && !m.IsMoE() {
		per := workload.ActivationBytesPerLayerCP(m, p.MicroBatchSize, p.TP, p.CP, p.SequenceParallel, r)
		return activations{perLayer: per, perDense: per, cfg: cfg, dense: true}, nil
	}
	if a, ok := cachedActivations(cfg); ok {
		return a, nil
	}
	var a activations
	a.cfg, a.dense = cfg, true
	saved := func(build func(operators.Config) (operators.List, error), cfg operators.Config) (float64, error) {
		l, err := build(cfg)
		if err != nil {
			return 0, err
		}
		return l.Totals().Saved(), nil
	}
	var err error
	if a.perLayer, err = saved(operators.Layer, cfg); err != nil {
		return a, err
	}
	a.perDense = a.perLayer
	if m.IsMoE() && m.MoE.DenseLayers > 0 {
		if a.perDense, err = saved(operators.Layer, denseConfig(cfg)); err != nil {
			return a, err
		}
	}
	if a.first, err = saved(operators.Embedding, cfg); err != nil {
		return a, err
	}
	if a.last, err = saved(operators.Head, cfg); err != nil {
		return a, err
	}
	rememberActivations(cfg, a)
	return a, nil
}

// denseConfig is cfg for one of a mixture of experts' dense first layers.
func denseConfig(cfg operators.Config) operators.Config {
	cfg.DenseMLP = true
	return cfg
}

// activationCache remembers the operator lists' saved bytes by
// configuration: the planner screens thousands of plans that share a few
// dozen, and building a layer's list costs tens of microseconds. The
// figures are a function of the configuration alone, so the cache changes
// no result; it is safe for the planner's goroutines and bounded.
var activationCache = struct {
	sync.Mutex
	m map[operators.Config]activations
}{m: map[operators.Config]activations{}}

// maxCachedActivations bounds activationCache; a full cache starts afresh.
const maxCachedActivations = 4096

func cachedActivations(cfg operators.Config) (activations, bool) {
	activationCache.Lock()
	defer activationCache.Unlock()
	a, ok := activationCache.m[cfg]
	return a, ok
}

func rememberActivations(cfg operators.Config, a activations) {
	activationCache.Lock()
	defer activationCache.Unlock()
	if len(activationCache.m) >= maxCachedActivations {
		clear(activationCache.m)
	}
	activationCache.m[cfg] = a
}

// activations is what one microbatch leaves on a GPU for its backward
// pass: per layer, and on the first and last model stages on top.
type activations struct {
	// perLayer is an MoE layer's in a mixture of experts, perDense a dense
	// layer's (the same in a dense model).
	perLayer, perDense, first, last float64
	cfg                             operators.Config
	dense                           bool
}

// of is the activations one microbatch leaves on a GPU of stage st: its
// MoE and dense layers, the embedding on the first stage, and the head
// and each multi-token prediction module (an MoE layer and a pass
// through the head) on the last.
func (a activations) of(m workload.Model, st workload.Stage) float64 {
	moe := float64(workload.MoELayersIn(m, st))
	b := moe*a.perLayer + (float64(st.Layers)-moe)*a.perDense
	if st.First {
		b += a.first
	}
	if st.Last {
		b += a.last + float64(m.MTP)*(a.perLayer+a.last)
	}
	return b
}
