package operators

import "fmt"

// ModelStateBytes is the memory of params parameters on one GPU under
// Megatron-LM's distributed optimizer over dp data-parallel ranks with bf16
// parameters and fp32 main gradients: 6 + 12/dp bytes per parameter (the
// bf16 weight 2 and fp32 gradient 4 on every rank; the fp32 master weight
// and both Adam moments, 12, sharded), as the Megatron Core developer
// guide's distributed-optimizer page tabulates it (18 bytes without the
// distributed optimizer). It panics on params < 0 or dp < 1.
func ModelStateBytes(params float64, dp int) float64 {
	if !(params >= 0) || dp < 1 {
		panic(fmt.Sprintf("operators: model states of %v parameters over %d ranks", params, dp))
	}
	return params * (6 + 12/float64(dp))
}

// StageActivationBytes is the activation memory of a pipeline stage of
// layers layers with inFlight microbatches whose activations are alive at
// once (p − i on stage i under 1F1B, Narayanan et al. 2021): each keeps
// every layer's saved bytes and statistics, and the recomputed forward of
// one layer is alive on top while that layer's backward runs.
func StageActivationBytes(layer List, layers, inFlight int) float64 {
	t := layer.Totals()
	return float64(layers*inFlight)*t.Saved() + t.RecomputeSaved
}
