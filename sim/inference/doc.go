// Package inference is the cost model of serving a decoder-only
// transformer: how many bytes of key/value cache one token leaves on a GPU,
// how long one prefill or one decode step of a batch takes on a stage of
// the model, how much memory a GPU holds, and how much HBM shared-weight
// data parallelism (SiDP) frees for the cache.
//
// Every function of the cost model (model.go) is a closed form named in
// its comment. Simulate (serve.go) is the strategy "inference": it lays a
// serving run out as a task graph priced by that model, plays it with
// package taskgraph, and gives every idle interval of a GPU its kind
// (serve_record.go); the tests check the run against the closed forms.
//
// The two formulas everything else rests on:
//
//	KV bytes per token per GPU = 2 · layers · kv_heads · head_dim · bytes / tp
//	step time (roofline)        = max(bytes read / HBM bandwidth, FLOPs / (peak · efficiency))
//
// The first is the size of one token's keys and values (2 tensors, one per
// layer, kv_heads·head_dim wide: grouped-query attention shrinks kv_heads);
// tensor parallelism splits the heads. The second is the roofline model
// (Williams, Waterman & Patterson 2009): a decode step that reads every
// weight once for a handful of tokens is bound by memory bandwidth, a
// prefill of thousands of tokens by compute.
//
// A run applies the roofline kernel by kernel (opmodel.go): a step is the
// served model's op list at the step's token count (sim/operators: the
// layers' GEMMs, norms, activations and residuals, the cache append, one
// fused attention kernel over the cache, the embedding and the head),
// each GEMM at the efficiency sim/gemm gives its shape on the GPU, every
// kernel's bytes at the achievable HBM bandwidth, and one launch per
// kernel: the per-step overhead. Training prices its layers from the same
// op list and GEMM model, so serving and training share one physics.
// training.efficiency, when set, brings back the single roofline above at
// that fraction of peak.
package inference
