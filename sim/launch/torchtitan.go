package launch

import (
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/scenario"
)

// torchtitan's job-file keys for a plan (torchtitan's JobConfig, the
// [parallelism], [training], [activation_checkpoint] and [model]
// sections):
//
//	dp, zero 0                    data_parallel_replicate_degree = dp (DDP), data_parallel_shard_degree = 1
//	dp, zero 3                    data_parallel_shard_degree = dp (FSDP2), fsdp_reshard_after_forward = "default"
//	dp, zero 2                    data_parallel_shard_degree = dp, fsdp_reshard_after_forward = "never"
//	                              (FSDP2 keeps the gathered parameters from the forward to the backward: the
//	                              nearest FSDP2 has to ZeRO-2's replicated parameters; zero 1 has none)
//	tp, sequence_parallel         tensor_parallel_degree, enable_sequence_parallel
//	tp_comm_overlap               enable_async_tensor_parallel
//	pp, schedule                  pipeline_parallel_degree, pipeline_parallel_schedule: 1F1B, Interleaved1F1B,
//	                              GPipe, InterleavedZeroBubble (zb-h1), ZBVZeroBubble (zb-v), DualPipeV
//	virtual_stages v              pipeline_parallel_layers_per_stage = layers ÷ (pp·v) (UNCONFIRMED: whether
//	                              torchtitan counts the embedding and the head in a stage's layers)
//	cp, ep                        context_parallel_degree, expert_parallel_degree
//	b, m                          training.local_batch_size (b·m with pp > 1, else b), pipeline_parallel_microbatch_size b,
//	                              training.global_batch_size dp·m·b (gradient accumulation without pp)
//	recompute none|selective|full activation_checkpoint.mode (selective: selective_ac_option = "op", torchtitan's
//	                              per-op policy, the nearest to recomputing the attention core)
//	model llama3-8b|70b|405b      model.name = "llama3", model.flavor = "8B", "70B", "405B"; training.seq_len
//	precision bf16                training.mixed_precision_param = "bfloat16" (fp16 and fp8 are not written)
//
// The job file gives no world size: it is the product of the degrees.

// ttSchedules maps ParaPlay's schedules to torchtitan's names.
var ttSchedules = map[string]string{"1f1b": "1F1B", "interleaved": "Interleaved1F1B", "gpipe": "GPipe",
	"zb-h1": "InterleavedZeroBubble", "zb-v": "ZBVZeroBubble", "dualpipev": "DualPipeV"}

// ttChunks is the model stages per pipeline rank of p's schedule:
// interleaved's v, the V schedules' two, one for the others.
func ttChunks(p scenario.Parallel) int {
	switch p.Schedule {
	case "interleaved":
		return max(1, p.VirtualStages)
	case "zb-v", "dualpipev":
		return 2
	}
	return 1
}

// ttFlavors maps the Llama 3 presets to torchtitan's llama3 flavors.
var ttFlavors = map[string]string{"llama3-8b": "8B", "llama3-70b": "70B", "llama3-405b": "405B"}

// Torchtitan writes the plan s as a torchtitan job file; FromTorchtitan
// reads it back.
func Torchtitan(s scenario.Scenario) (string, error) {
	if err := checkExpressible(s, "torchtitan", []string{"1f1b", "interleaved", "gpipe", "zb-h1", "zb-v", "dualpipev"}); err != nil {
		return "", err
	}
	p := s.Parallel
	sh, err := shapeOf(s)
	if err != nil {
		return "", err
	}
	flavor, ok := ttFlavors[s.Model.Preset]
	switch {
	case !ok || slices.ContainsFunc(s.Model.Overrides(), func(o string) bool { return !strings.HasPrefix(o, "seq_len ") }):
		return "", fmt.Errorf("model: %s; torchtitan's llama3 flavors are ParaPlay's llama3-8b, llama3-70b and llama3-405b, unmodified", s.Model.Label())
	case p.ZeRO == 1 && p.DP > 1:
		return "", fmt.Errorf("parallel.zero: 1; torchtitan shards with FSDP2 (zero 2 or 3) or replicates (zero 0), it has no ZeRO-1")
	case s.Training.Precision != "bf16":
		return "", fmt.Errorf("training.precision: %s; the export writes bf16 only", s.Training.Precision)
	case s.Training.GradAccumulation == "unfused" || p.GradReduce == "after_backward":
		return "", fmt.Errorf("training.grad_accumulation, parallel.grad_reduce: torchtitan fuses and overlaps its gradient reduction")
	case sh.layers%(p.PP*ttChunks(p)) != 0:
		return "", fmt.Errorf("parallel.pp: %d layers do not split into pp %d × %d stages", sh.layers, p.PP, ttChunks(p))
	}
	replicate, shard, reshard := p.DP, 1, ""
	if p.ZeRO >= 2 {
		replicate, shard, reshard = 1, p.DP, map[int]string{2: "never", 3: "default"}[p.ZeRO]
	}
	local := p.MicroBatchSize
	if p.PP > 1 {
		local *= p.Microbatches
	}
	var b strings.Builder
	b.WriteString(header(s, "torchtitan"))
	fmt.Fprintf(&b, "[model]\nname = \"llama3\"\nflavor = %q\n\n", flavor)
	fmt.Fprintf(&b, "[training]\nlocal_batch_size = %d\nglobal_batch_size = %d\nseq_len = %d\nmixed_precision_param = \"bfloat16\"\n\n",
		local, p.DP*p.Microbatches*p.MicroBatchSize, sh.seq)
	fmt.Fprintf(&b, "[parallelism]\ndata_parallel_replicate_degree = %d\ndata_parallel_shard_degree = %d\n", replicate, shard)
	if reshard != "" {
		fmt.Fprintf(&b, "fsdp_reshard_after_forward = %q\n", reshard)
	}
	fmt.Fprintf(&b, "tensor_parallel_degree = %d\nenable_sequence_parallel = %t\nenable_async_tensor_parallel = %t\n", p.TP, p.SequenceParallel, p.TPCommOverlap)
	fmt.Fprintf(&b, "pipeline_parallel_degree = %d\npipeline_parallel_schedule = %q\n", p.PP, ttSchedules[p.Schedule])
	fmt.Fprintf(&b, "pipeline_parallel_microbatch_size = %d\npipeline_parallel_layers_per_stage = %d\n", p.MicroBatchSize, sh.layers/(p.PP*ttChunks(p)))
	fmt.Fprintf(&b, "context_parallel_degree = %d\nexpert_parallel_degree = %d\n\n", p.CP, p.EP)
	fmt.Fprintf(&b, "[activation_checkpoint]\nmode = %q\n", p.Recompute)
	if p.Recompute == "selective" {
		b.WriteString("selective_ac_option = \"op\"\n")
	}
	return b.String(), nil
}
