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
// Eager attention is Korthikanti et al. 2022's accounting, exactly
// (workload.ActivationBytesPerLayerCP; the paper leaves out the embedding
// and the head). FlashAttention, the default, is what each kernel of the
// layer's operator list keeps for its backward pass (package operators:
// no s×s tensor, the fp32 logsumexp and norm statistics, GQA's smaller
// K and V, SwiGLU's three matrices), with the embedding's dropout mask and
// the head's fp32 softmax for the cross-entropy. A mixture-of-experts
// model, which the operator list does not cover yet, keeps Korthikanti's
// layer without its s×s terms (the selective-recomputation row: what
// flash attention does not keep).
func (c *costs) activations(eager bool, precision operators.DType) (activations, error) {
	m, p := c.model, c.par
	r := workload.Recompute(p.Recompute)
	if eager {
		cfg := operators.Config{Model: m, MicroBatch: p.MicroBatchSize, TP: p.TP, SequenceParallel: p.SequenceParallel, CP: p.CP,
			Attention: operators.Eager, Causal: true, Precision: precision, Recompute: r, Dropout: m.FFN == "gelu", UnfusedGradAccumulation: c.unfusedAcc}
		return activations{perLayer: workload.ActivationBytesPerLayerCP(m, p.MicroBatchSize, p.TP, p.CP, p.SequenceParallel, r), cfg: cfg, dense: !m.IsMoE()}, nil
	}
	if m.IsMoE() {
		if r == workload.RecomputeNone {
			r = workload.RecomputeSelective
		}
		return activations{perLayer: workload.ActivationBytesPerLayerCP(m, p.MicroBatchSize, p.TP, p.CP, p.SequenceParallel, r)}, nil
	}
	cfg := operators.Config{Model: m, MicroBatch: p.MicroBatchSize, TP: p.TP, SequenceParallel: p.SequenceParallel, CP: p.CP,
		Attention: operators.Flash, Causal: true, Precision: precision, Recompute: r,
		// Megatron trains GPT with dropout; Llama trains without (Touvron
		// et al. 2023; Dubey et al. 2024).
		Dropout: m.FFN == "gelu", UnfusedGradAccumulation: c.unfusedAcc}
	if a, ok := cachedActivations(cfg); ok {
		return a, nil
	}
	var a activations
	a.cfg, a.dense = cfg, true
	saved := func(build func(operators.Config) (operators.List, error)) (float64, error) {
		l, err := build(cfg)
		if err != nil {
			return 0, err
		}
		return l.Totals().Saved(), nil
	}
	var err error
	if a.perLayer, err = saved(operators.Layer); err != nil {
		return a, err
	}
	if a.first, err = saved(operators.Embedding); err != nil {
		return a, err
	}
	if a.last, err = saved(operators.Head); err != nil {
		return a, err
	}
	rememberActivations(cfg, a)
	return a, nil
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
	perLayer, first, last float64
	cfg                   operators.Config
	dense                 bool
}
