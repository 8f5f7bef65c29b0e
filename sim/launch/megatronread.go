package launch

import (
	"paraplay/sim/operators"
	"paraplay/sim/scenario"
)

// megatronReadParallel sets s.Parallel from the flags: the degrees, dp
// from the world size, the schedule, recomputation, the batch split and
// the ZeRO stage (the table in megatron.go, read backwards).
func megatronReadParallel(r *reader, s *scenario.Scenario) {
	p := &s.Parallel
	p.TP, p.PP = r.int("tensor-model-parallel-size", 1), r.int("pipeline-model-parallel-size", 1)
	p.CP, p.EP = r.int("context-parallel-size", 1), r.int("expert-model-parallel-size", 1)
	world := s.NumGPUs()
	if world < 1 || world%(p.TP*p.PP*p.CP) != 0 {
		r.bad("nnodes", "%d GPUs (torchrun --nnodes × --nproc-per-node) are not a multiple of tp %d × pp %d × cp %d", world, p.TP, p.PP, p.CP)
		return
	}
	p.DP = world / (p.TP * p.PP * p.CP)
	if v := r.int("num-virtual-stages-per-pipeline-rank", 0); v > 1 {
		p.Schedule, p.VirtualStages = "interleaved", v
	} else if k := r.int("num-layers-per-virtual-pipeline-stage", 0); k > 0 {
		layers := r.int("num-layers", 0)
		if layers%(p.PP*k) != 0 {
			r.bad("num-layers-per-virtual-pipeline-stage", "%d: --num-layers %d is not a multiple of pp %d × %d", k, layers, p.PP, k)
		} else if v := layers / (p.PP * k); v > 1 {
			p.Schedule, p.VirtualStages = "interleaved", v
		}
	}
	megatronReadSplit(r, p)
	p.SequenceParallel, p.TPCommOverlap = r.f.has("sequence-parallel"), r.f.has("tp-comm-overlap")
	p.Recompute = megatronReadRecompute(r)
	if m, ok := r.f.last("recompute-modules"); ok && p.Recompute == "selective" {
		p.RecomputeModules = megatronReadModules(r, m)
	}
	p.MicroBatchSize = r.int("micro-batch-size", 1)
	global := r.int("global-batch-size", p.DP*p.MicroBatchSize)
	if global%(p.DP*p.MicroBatchSize) != 0 {
		r.bad("global-batch-size", "%d is not a multiple of dp %d × --micro-batch-size %d", global, p.DP, p.MicroBatchSize)
	} else {
		p.Microbatches = global / (p.DP * p.MicroBatchSize)
	}
	p.ZeRO = megatronReadZeRO(r)
	if !r.f.has("overlap-grad-reduce") {
		p.GradReduce = "after_backward" // Megatron's default: one reduction after the backward
	}
}

// megatronReadRecompute is the recomputation policy.
func megatronReadRecompute(r *reader) string {
	g, ok := r.f.last("recompute-granularity")
	switch {
	case !ok && r.f.has("recompute-activations"):
		return "selective"
	case !ok:
		return "none"
	case g == "selective":
		return "selective"
	case r.f.has("recompute-modules"):
		r.bad("recompute-modules", "applies with --recompute-granularity selective, and it is %q", g)
	case g != "full":
		r.bad("recompute-granularity", "%q; allowed full, selective", g)
	}
	if m, ok := r.f.last("recompute-method"); ok && m != "uniform" {
		r.bad("recompute-method", "%q; ParaPlay recomputes every layer (uniform) or none", m)
	}
	r.int("recompute-num-layers", 1)
	return "full"
}

// megatronReadModules checks Megatron-Core's module names (the simulator
// runs four of them; the scenario's own checks, which need the model,
// come when it is validated).
func megatronReadModules(r *reader, list string) string {
	if list == "" {
		r.bad("recompute-modules", "names no module; allowed core_attn, moe_act, layernorm, mla_up_proj")
	} else if _, err := operators.ParseModules(list); err != nil {
		r.bad("recompute-modules", "%v", err)
	}
	return list
}

// megatronReadZeRO is the ZeRO stage of the distributed optimizer and
// Megatron-FSDP's sharding strategy (or PyTorch FSDP2's full sharding).
func megatronReadZeRO(r *reader) int {
	zero := 0
	if r.f.has("use-distributed-optimizer") {
		zero = 1
	}
	fsdp := r.f.has("use-megatron-fsdp") || r.f.has("use-custom-fsdp")
	strategy, given := r.f.last("data-parallel-sharding-strategy")
	switch {
	case r.f.has("use-torch-fsdp2"):
		return 3
	case given && !fsdp:
		r.bad("data-parallel-sharding-strategy", "%q applies with --use-megatron-fsdp, which is not given", strategy)
	case !fsdp:
	case strategy == "optim_grads_params", !given: // Megatron-FSDP shards everything unless told otherwise
		return 3
	case strategy == "optim_grads":
		return 2
	case strategy == "optim":
		return 1
	case strategy != "no_shard":
		r.bad("data-parallel-sharding-strategy", "%q; allowed no_shard, optim, optim_grads, optim_grads_params", strategy)
	}
	return zero
}

// megatronReadShape reads the model's shape; ok is false when a required
// flag is missing (named in r).
func megatronReadShape(r *reader) (shape, bool) {
	var sh shape
	for _, req := range []string{"num-layers", "hidden-size", "num-attention-heads", "seq-length"} {
		if !r.f.has(req) {
			r.bad(req, "missing; the model's shape needs --num-layers, --hidden-size, --num-attention-heads and --seq-length")
			return sh, false
		}
	}
	sh.layers, sh.hidden, sh.heads = r.int("num-layers", 1), r.int("hidden-size", 1), r.int("num-attention-heads", 1)
	sh.seq, sh.vocab = r.int("seq-length", 1), r.int("vocab-size", 0)
	sh.kvHeads = sh.heads
	if r.f.has("group-query-attention") {
		sh.kvHeads = r.int("num-query-groups", 1)
	}
	sh.ffnKind, sh.norm, sh.position, sh.bias, sh.tied = "gelu", "layernorm", "learned", true, true
	if r.f.has("swiglu") {
		sh.ffnKind = "swiglu"
		if !r.f.has("ffn-hidden-size") {
			r.bad("ffn-hidden-size", "missing; with --swiglu ParaPlay needs the MLP width given")
		}
	}
	sh.ffn = r.int("ffn-hidden-size", 4*sh.hidden)
	if n, ok := r.f.last("normalization"); ok && n != "LayerNorm" && n != "RMSNorm" {
		r.bad("normalization", "%q; allowed LayerNorm, RMSNorm", n)
	} else if n == "RMSNorm" {
		sh.norm = "rmsnorm"
	}
	if pe, ok := r.f.last("position-embedding-type"); ok && pe != "learned_absolute" && pe != "rope" {
		r.bad("position-embedding-type", "%q; allowed learned_absolute, rope", pe)
	} else if pe == "rope" {
		sh.position = "rope"
	}
	sh.tied, sh.bias = !r.f.has("untie-embeddings-and-output-weights"), !r.f.has("disable-bias-linear")
	if sh.experts = r.int("num-experts", 0); sh.experts > 1 {
		sh.topK, sh.moeFFN = r.int("moe-router-topk", 2), r.int("moe-ffn-hidden-size", sh.ffn)
	}
	return sh, true
}
