package launch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// ttRead are the job-file keys FromTorchtitan reads; ttIgnored the keys
// (section.key, or section.* for a whole section) that change nothing
// ParaPlay simulates of an iteration.
var (
	ttRead = strings.Fields(`model.name model.flavor training.local_batch_size training.global_batch_size
		training.seq_len training.mixed_precision_param parallelism.data_parallel_replicate_degree
		parallelism.data_parallel_shard_degree parallelism.fsdp_reshard_after_forward
		parallelism.tensor_parallel_degree parallelism.enable_sequence_parallel
		parallelism.enable_async_tensor_parallel parallelism.pipeline_parallel_degree
		parallelism.pipeline_parallel_schedule parallelism.pipeline_parallel_microbatch_size
		parallelism.pipeline_parallel_layers_per_stage parallelism.context_parallel_degree
		parallelism.expert_parallel_degree activation_checkpoint.mode activation_checkpoint.selective_ac_option`)
	ttIgnored = strings.Fields(`job.* metrics.* optimizer.* lr_scheduler.* checkpoint.* comm.* profiling.* validation.*
		compile.* fault_tolerance.* memory_estimation.* model.tokenizer_path model.hf_assets_path training.steps
		training.dataset training.dataset_path training.max_norm training.warmup_steps training.seed
		training.deterministic training.gc_freq training.mixed_precision_reduce parallelism.disable_loss_parallel
		parallelism.context_parallel_rotate_method`)
)

// ttReader reads a job file's values; errors name the key.
type ttReader struct {
	d    tomlDoc
	errs []error
}

func (r *ttReader) bad(key, format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("%s: "+format, append([]any{key}, args...)...))
}

// int reads a whole number in lo..MaxDegree, def when absent.
func (r *ttReader) int(key string, def, lo int) int {
	v, ok := r.d.values[key]
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > MaxDegree {
		r.bad(key, "%s; want a whole number in %d..%d", v, lo, MaxDegree)
		return def
	}
	return n
}

func (r *ttReader) str(key, def string) string {
	if v, ok := r.d.values[key]; ok {
		return v
	}
	return def
}

func (r *ttReader) bool(key string, def bool) bool {
	v, ok := r.d.values[key]
	if !ok {
		return def
	}
	if v != "true" && v != "false" {
		r.bad(key, "%s; want true or false", v)
	}
	return v == "true"
}

// FromTorchtitan reads a torchtitan job file into a training scenario on
// base's GPU type, as many GPUs as the degrees multiply to (base's GPUs
// per node, or 8, to a node). The error names every key it does not
// understand and every value out of range.
func FromTorchtitan(text string, base scenario.Scenario) (scenario.Scenario, error) {
	d, err := parseTOML(text)
	if err != nil {
		return base, err
	}
	r := &ttReader{d: d}
	var unknownKeys []string
	for _, k := range d.order {
		sec, _, _ := strings.Cut(k, ".")
		if !contains(ttRead, k) && !contains(ttIgnored, k) && !contains(ttIgnored, sec+".*") {
			unknownKeys = append(unknownKeys, k)
		}
	}
	if len(unknownKeys) > 0 {
		r.errs = append(r.errs, fmt.Errorf("torchtitan keys not understood: %s", strings.Join(unknownKeys, ", ")))
	}
	s := base
	s.Strategy, s.Parallel = "training", scenario.Default().Parallel
	s.Training.Precision, s.Training.GradAccumulation = "bf16", ""
	if mp := r.str("training.mixed_precision_param", "bfloat16"); mp != "bfloat16" {
		r.bad("training.mixed_precision_param", "%q; ParaPlay reads bfloat16 only", mp)
	}
	m, layers := ttModel(r)
	s.Model = m
	ttParallel(r, &s, layers)
	if len(r.errs) > 0 {
		return s, errors.Join(r.errs...)
	}
	return s, s.Validate()
}

// ttModel is the model of model.name and model.flavor, at training.seq_len,
// and its layer count.
func ttModel(r *ttReader) (scenario.Model, int) {
	name, flavor := r.str("model.name", ""), r.str("model.flavor", "")
	var m scenario.Model
	for preset, f := range ttFlavors {
		if name == "llama3" && flavor == f {
			m.Preset = preset
		}
	}
	if m.Preset == "" {
		r.bad("model.flavor", "%s %s; ParaPlay reads llama3 8B, 70B and 405B", name, flavor)
		return m, 1
	}
	p, _ := workload.LookupModel(m.Preset)
	if seq := r.int("training.seq_len", p.SeqLen, 1); seq != p.SeqLen {
		m.SeqLen = seq
	}
	return m, p.Layers
}

// ttParallel sets s's plan and cluster size from [parallelism],
// [training] and [activation_checkpoint] (the table in torchtitan.go,
// read backwards).
func ttParallel(r *ttReader, s *scenario.Scenario, layers int) {
	p := &s.Parallel
	replicate, shard := r.int("parallelism.data_parallel_replicate_degree", 1, 1), r.int("parallelism.data_parallel_shard_degree", 1, 1)
	p.TP, p.PP = r.int("parallelism.tensor_parallel_degree", 1, 1), r.int("parallelism.pipeline_parallel_degree", 1, 1)
	p.CP, p.EP = r.int("parallelism.context_parallel_degree", 1, 1), r.int("parallelism.expert_parallel_degree", 1, 1)
	switch reshard := r.str("parallelism.fsdp_reshard_after_forward", "default"); {
	case replicate > 1 && shard > 1:
		r.bad("parallelism.data_parallel_shard_degree", "%d with data_parallel_replicate_degree %d: ParaPlay does not model HSDP", shard, replicate)
	case shard == 1:
		p.DP = replicate
	case reshard == "never":
		p.DP, p.ZeRO = shard, 2
	case reshard == "default" || reshard == "always":
		p.DP, p.ZeRO = shard, 3
	default:
		r.bad("parallelism.fsdp_reshard_after_forward", "%q; allowed default, always, never", reshard)
	}
	p.SequenceParallel = r.bool("parallelism.enable_sequence_parallel", p.TP > 1)
	p.TPCommOverlap = r.bool("parallelism.enable_async_tensor_parallel", false)
	ttSchedule(r, p, layers)
	ttBatch(r, p)
	switch mode := r.str("activation_checkpoint.mode", "selective"); mode {
	case "none", "selective", "full":
		p.Recompute = mode
	default:
		r.bad("activation_checkpoint.mode", "%q; allowed none, selective, full", mode)
	}
	world := p.DP * p.TP * p.PP * p.CP
	perNode := s.Cluster.GPUsPerNode
	if perNode <= 0 {
		perNode = 8
	}
	if world < perNode {
		perNode = world
	}
	if world%perNode != 0 {
		r.bad("parallelism", "the degrees multiply to %d GPUs, not a whole number of %d-GPU nodes", world, perNode)
		return
	}
	s.Cluster.Nodes, s.Cluster.GPUsPerNode = world/perNode, perNode
}

// ttSchedule sets the pipeline schedule and its model stages per rank.
func ttSchedule(r *ttReader, p *scenario.Parallel, layers int) {
	name := r.str("parallelism.pipeline_parallel_schedule", "1F1B")
	p.Schedule = ""
	for ours, theirs := range ttSchedules {
		if theirs == name {
			p.Schedule = ours
		}
	}
	if p.Schedule == "" {
		r.bad("parallelism.pipeline_parallel_schedule", "%q; ParaPlay reads 1F1B, Interleaved1F1B, GPipe, InterleavedZeroBubble, ZBVZeroBubble, DualPipeV", name)
		p.Schedule = "1f1b"
		return
	}
	want := ttChunks(*p)
	if p.Schedule == "interleaved" {
		want = 2 // torchtitan's default for a multi-stage schedule
	}
	perStage := r.int("parallelism.pipeline_parallel_layers_per_stage", layers/(p.PP*want), 1)
	chunks := 0
	if perStage > 0 && layers%(p.PP*perStage) == 0 {
		chunks = layers / (p.PP * perStage)
	}
	switch {
	case p.Schedule == "interleaved" && chunks >= 2:
		p.VirtualStages = chunks
	case p.Schedule != "interleaved" && chunks == ttChunks(*p):
	default:
		r.bad("parallelism.pipeline_parallel_layers_per_stage", "%d: %d layers on pp %d make no whole number of stages per rank that %s runs",
			perStage, layers, p.PP, name)
	}
}

// ttBatch sets the micro-batch size and the microbatches per replica.
func ttBatch(r *ttReader, p *scenario.Parallel) {
	local := r.int("training.local_batch_size", 8, 1)
	global := r.int("training.global_batch_size", p.DP*local, 1)
	if p.PP > 1 {
		p.MicroBatchSize = r.int("parallelism.pipeline_parallel_microbatch_size", 1, 1)
		if local%p.MicroBatchSize != 0 || global != p.DP*local {
			r.bad("training.local_batch_size", "%d (global %d): with pp > 1 ParaPlay reads local = a multiple of pipeline_parallel_microbatch_size %d and global = dp %d × local",
				local, global, p.MicroBatchSize, p.DP)
			return
		}
		p.Microbatches = local / p.MicroBatchSize
		return
	}
	p.MicroBatchSize = local
	if global%(p.DP*local) != 0 {
		r.bad("training.global_batch_size", "%d is not a multiple of dp %d × local_batch_size %d", global, p.DP, local)
		return
	}
	p.Microbatches = global / (p.DP * local)
}
