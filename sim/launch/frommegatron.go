package launch

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
)

// ignoredMegatron are Megatron-LM flags that change nothing ParaPlay
// simulates of one iteration (data, tokenizer, learning rate, checkpoints,
// logging, fused-kernel switches whose time the cost model does not
// split out): read and left out.
var ignoredMegatron = strings.Fields(`lr min-lr lr-decay-style lr-decay-iters lr-decay-samples lr-warmup-iters
	lr-warmup-samples lr-warmup-fraction train-iters train-samples weight-decay clip-grad adam-beta1 adam-beta2
	adam-eps init-method-std data-path train-data-path valid-data-path test-data-path data-cache-path split
	tokenizer-type tokenizer-model vocab-file merge-file mock-data save load save-interval eval-interval
	eval-iters log-interval seed attention-dropout hidden-dropout distributed-backend distributed-timeout-minutes
	tensorboard-dir wandb-project wandb-exp-name log-throughput log-timers-to-tensorboard timing-log-level
	no-load-optim no-load-rng finetune exit-duration-in-mins use-flash-attn attention-backend use-mcore-models
	transformer-impl ckpt-format no-masked-softmax-fusion no-bias-swiglu-fusion no-bias-dropout-fusion
	no-rope-fusion rotary-base norm-epsilon make-vocab-size-divisible-by cross-entropy-loss-fusion
	manual-gc manual-gc-interval overlap-param-gather accumulate-allreduce-grads-in-fp32 num-workers
	dataloader-type calculate-per-token-loss max-position-embeddings moe-grouped-gemm moe-token-dispatcher-type
	moe-router-load-balancing-type moe-aux-loss-coeff`)

// readMegatron are the flags FromMegatron reads into the scenario.
var readMegatron = strings.Fields(`tensor-model-parallel-size pipeline-model-parallel-size context-parallel-size
	expert-model-parallel-size num-virtual-stages-per-pipeline-rank num-layers-per-virtual-pipeline-stage
	sequence-parallel tp-comm-overlap recompute-activations recompute-granularity recompute-method
	recompute-num-layers recompute-modules micro-batch-size global-batch-size use-distributed-optimizer
	use-megatron-fsdp use-custom-fsdp use-torch-fsdp2 data-parallel-sharding-strategy overlap-grad-reduce
	no-gradient-accumulation-fusion bf16 fp16 fp8-format optimizer num-layers hidden-size ffn-hidden-size
	num-attention-heads group-query-attention num-query-groups num-experts moe-router-topk moe-ffn-hidden-size
	seq-length swiglu normalization position-embedding-type untie-embeddings-and-output-weights
	disable-bias-linear vocab-size pipeline-model-parallel-layout decoder-first-pipeline-num-layers
	decoder-last-pipeline-num-layers`)

// torchrunFlags are the launcher's flags (either spelling), of which
// nnodes and nproc-per-node set the cluster.
var torchrunFlags = strings.Fields(`nnodes nproc-per-node nproc_per_node standalone node-rank node_rank master-addr
	master_addr master-port master_port rdzv-backend rdzv_backend rdzv-endpoint rdzv_endpoint rdzv-id rdzv_id
	max-restarts max_restarts`)

// MaxDegree bounds every parallel degree and size read from a launch
// configuration.
const MaxDegree = 1 << 20

// reader collects a launch configuration's values and the errors, each
// naming its flag.
type reader struct {
	f    flagSet
	errs []error
}

func (r *reader) bad(flag, format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("--%s: "+format, append([]any{flag}, args...)...))
}

// int reads a whole number in 1..MaxDegree, def when the flag is absent.
func (r *reader) int(flag string, def int) int {
	v, ok := r.f.last(flag)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxDegree {
		r.bad(flag, "%q; want a whole number in 1..%d", v, MaxDegree)
		return def
	}
	return n
}

// FromMegatron reads a Megatron-LM launch line (optionally behind a
// torchrun launcher and its script) into a training scenario on base's
// cluster (its GPU type, and its size unless torchrun gives
// --nnodes and --nproc-per-node). The error names every flag it does not
// understand and every value out of range.
func FromMegatron(line string, base scenario.Scenario) (scenario.Scenario, error) {
	ws, err := words(line)
	if err != nil {
		return base, err
	}
	var launcher []string
	if i := slices.IndexFunc(ws, func(w string) bool { return strings.HasSuffix(w, ".py") }); i >= 0 {
		launcher, ws = ws[:i], ws[i+1:]
	}
	lf, lpos := parseFlags(launcher)
	f, pos := parseFlags(ws)
	r := &reader{f: f}
	for _, w := range lpos {
		if !contains([]string{"torchrun", "python", "python3", "-m", "torch.distributed.run", "torch.distributed.launch"}, w) {
			r.errs = append(r.errs, fmt.Errorf("%q: not a launcher word ParaPlay reads (torchrun, python -m torch.distributed.run)", w))
		}
	}
	if len(pos) > 0 {
		r.errs = append(r.errs, fmt.Errorf("%q: a word that is not a flag's value", pos[0]))
	}
	unknown(r, lf.order, torchrunFlags, "torchrun flag")
	unknown(r, f.order, append(slices.Clone(readMegatron), ignoredMegatron...), "Megatron-LM flag")
	s := base
	s.Strategy, s.Parallel = "training", scenario.Default().Parallel
	s.Training.Precision, s.Training.GradAccumulation = megatronReadPrecision(r), ""
	lr := &reader{f: lf}
	nodes, perNode := lr.int("nnodes", 0), lr.int("nproc-per-node", lr.int("nproc_per_node", 0))
	r.errs = append(r.errs, lr.errs...)
	switch {
	case nodes > 0 || perNode > 0:
		s.Cluster.Nodes, s.Cluster.GPUsPerNode = max(nodes, 1), max(perNode, 1)
	case s.Cluster.Nodes == 0:
		r.errs = append(r.errs, errors.New("torchrun --nnodes, --nproc-per-node: not given and the base scenario has no cluster: how many GPUs is unknown (start the line with torchrun --nnodes N --nproc-per-node G script.py)"))
		return s, errors.Join(r.errs...)
	}
	megatronReadParallel(r, &s)
	if f.has("no-gradient-accumulation-fusion") {
		s.Training.GradAccumulation = "unfused"
	}
	if o, ok := f.last("optimizer"); ok && o != "adam" {
		r.bad("optimizer", "%q; ParaPlay models adam only", o)
	}
	if sh, ok := megatronReadShape(r); ok {
		if m, err := modelFor(sh); err != nil {
			r.errs = append(r.errs, err)
		} else {
			s.Model = m
		}
	}
	if len(r.errs) > 0 {
		return s, errors.Join(r.errs...)
	}
	return s, s.Validate()
}

// unknown names the flags of order not in known.
func unknown(r *reader, order, known []string, what string) {
	var names []string
	for _, name := range order {
		if !contains(known, name) {
			names = append(names, "--"+name)
		}
	}
	if len(names) > 0 {
		r.errs = append(r.errs, fmt.Errorf("%s not understood: %s", what, strings.Join(names, ", ")))
	}
}

// megatronReadPrecision is the number format: --fp16, --fp8-format (on
// bf16) or --bf16; without one Megatron-LM trains in fp32.
func megatronReadPrecision(r *reader) string {
	switch {
	case r.f.has("fp8-format"):
		return "fp8"
	case r.f.has("fp16"):
		return "fp16"
	case r.f.has("bf16"):
		return "bf16"
	}
	r.errs = append(r.errs, errors.New("--bf16, --fp16: neither given, so Megatron-LM trains in fp32, which ParaPlay does not model"))
	return "bf16"
}
