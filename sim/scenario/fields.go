package scenario

import (
	"fmt"
	"paraplay/sim/pipeline"
	"slices"
	"strconv"
	"strings"

	"paraplay/sim/units"
)

// Field is one row of the declarative table that maps a scenario field to
// its YAML key and URL parameter. Every reader and writer goes through it,
// so the file format and the URL format cannot drift apart. The table is
// the shared keys (headFields), then the sections of every registered
// strategy (Register), then tailFields.
type Field struct {
	// Key is the dotted YAML/JSON key, e.g. "link.bandwidth".
	Key string
	// Param is the URL query parameter, e.g. "bw".
	Param string
	// Help says what the value looks like, for messages and forms.
	Help string
	// Get writes the field's value in s; Set reads text into s, leaving s
	// as it was when text is not a valid value.
	Get func(s *Scenario) string
	Set func(s *Scenario, text string) error
}

// headFields are the keys every strategy shares, first in the table: the
// model's shape, then its mixture of experts and MLA (moe.go), then the
// rest.
var headFields = slices.Concat(modelFields, moeFields, planFields)

// modelFields are the keys up to the model's shape.
var modelFields = []Field{
	{"name", "name", "text", func(s *Scenario) string { return s.Name },
		func(s *Scenario, v string) error { s.Name = v; return nil }},
	{"strategy", "strategy", DefaultStrategy, func(s *Scenario) string { return s.Strategy },
		func(s *Scenario, v string) error { s.Strategy = v; return nil }},
	{"gpus", "gpus", "a whole number", func(s *Scenario) string { return strconv.Itoa(s.GPUs) },
		func(s *Scenario, v string) error { return parseInt(v, &s.GPUs) }},
	{"link.bandwidth", "bw", "e.g. 100GB/s", func(s *Scenario) string { return s.Link.Bandwidth.String() },
		func(s *Scenario, v string) error { return assign(&s.Link.Bandwidth, v, units.ParseBandwidth) }},
	{"link.latency", "lat", "e.g. 5us", func(s *Scenario) string { return s.Link.Latency.String() },
		func(s *Scenario, v string) error { return assign(&s.Link.Latency, v, units.ParseTime) }},
	{"compute.forward", "fwd", "e.g. 2ms", func(s *Scenario) string { return s.Compute.Forward.String() },
		func(s *Scenario, v string) error { return assign(&s.Compute.Forward, v, units.ParseTime) }},
	{"compute.backward", "bwd", "e.g. 4ms", func(s *Scenario) string { return s.Compute.Backward.String() },
		func(s *Scenario, v string) error { return assign(&s.Compute.Backward, v, units.ParseTime) }},
	{"compute.jitter", "jitter", "a fraction, e.g. 0.1", func(s *Scenario) string { return strconv.FormatFloat(s.Compute.Jitter, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Compute.Jitter) }},
	{"cluster.gpu", "gpu", "a GPU preset, e.g. h100-sxm", func(s *Scenario) string { return s.Cluster.GPU },
		func(s *Scenario, v string) error { s.Cluster.GPU = v; return nil }},
	{"cluster.nodes", "nodes", "a whole number", func(s *Scenario) string { return strconv.Itoa(s.Cluster.Nodes) },
		func(s *Scenario, v string) error { return parseInt(v, &s.Cluster.Nodes) }},
	{"cluster.gpus_per_node", "gpus_per_node", "a whole number", func(s *Scenario) string { return strconv.Itoa(s.Cluster.GPUsPerNode) },
		func(s *Scenario, v string) error { return parseInt(v, &s.Cluster.GPUsPerNode) }},
	{"cluster.intra", "link", "a link preset, e.g. nvlink4", func(s *Scenario) string { return s.Cluster.Intra },
		func(s *Scenario, v string) error { s.Cluster.Intra = v; return nil }},
	{"cluster.inter", "inter", "a link preset, e.g. ib-ndr", func(s *Scenario) string { return s.Cluster.Inter },
		func(s *Scenario, v string) error { s.Cluster.Inter = v; return nil }},
	{"cluster.network", "network", "rail-optimized or fat-tree", func(s *Scenario) string { return s.Cluster.Network },
		func(s *Scenario, v string) error { s.Cluster.Network = v; return nil }},
	floatField("cluster.oversubscription", "oversubscription", "a fat tree's leaf down:up ratio, 1..64", func(s *Scenario) *float64 { return &s.Cluster.Oversubscription }),
	stringField("cluster.topology", "topology", "a TPU slice's shape, e.g. 4x4x8", func(s *Scenario) *string { return &s.Cluster.Topology }),
	intField("cluster.slices", "slices", func(s *Scenario) *int { return &s.Cluster.Slices }),
	{"cluster.twisted", "twisted", "true or false", func(s *Scenario) string { return strconv.FormatBool(s.Cluster.Twisted) },
		func(s *Scenario, v string) error { return assign(&s.Cluster.Twisted, v, parseBool) }},
	stringField("cluster.wraparound", "wraparound", "auto or none", func(s *Scenario) *string { return &s.Cluster.Wraparound }),
	{"collective.op", "op", "e.g. all_reduce", func(s *Scenario) string { return s.Collective.Op },
		func(s *Scenario, v string) error { s.Collective.Op = v; return nil }},
	{"collective.algorithm", "algo", "e.g. ring", func(s *Scenario) string { return s.Collective.Algorithm },
		func(s *Scenario, v string) error { s.Collective.Algorithm = v; return nil }},
	{"collective.size", "size", "e.g. 256MiB", func(s *Scenario) string { return s.Collective.Size.String() },
		func(s *Scenario, v string) error { return assign(&s.Collective.Size, v, units.ParseBytes) }},
	{"collective.chunks", "chunks", "a whole number", func(s *Scenario) string { return strconv.Itoa(s.Collective.Chunks) },
		func(s *Scenario, v string) error { return parseInt(v, &s.Collective.Chunks) }},
	{"collective.channels", "channels", "a whole number; 0 = one per NIC", func(s *Scenario) string { return strconv.Itoa(s.Collective.Channels) },
		func(s *Scenario, v string) error { return parseInt(v, &s.Collective.Channels) }},
	stringField("collective.axes", "axes", "a TPU slice's torus axes, e.g. x or xyz; empty = all", func(s *Scenario) *string { return &s.Collective.Axes }),
	{"collective.protocol", "proto", "simple, ll, ll128 or auto; empty = the links as they are", func(s *Scenario) string { return s.Collective.Protocol },
		func(s *Scenario, v string) error { s.Collective.Protocol = v; return nil }},
	{"fidelity", "fidelity", "auto, detailed or analytic", func(s *Scenario) string { return s.Fidelity },
		func(s *Scenario, v string) error { s.Fidelity = v; return nil }},
	{"model.preset", "model", "a model preset, e.g. llama3-8b", func(s *Scenario) string { return s.Model.Preset },
		func(s *Scenario, v string) error { s.Model.Preset = v; return nil }},
	intField("model.layers", "layers", func(s *Scenario) *int { return &s.Model.Layers }),
	intField("model.hidden", "hidden", func(s *Scenario) *int { return &s.Model.Hidden }),
	intField("model.heads", "heads", func(s *Scenario) *int { return &s.Model.Heads }),
	intField("model.kv_heads", "kv_heads", func(s *Scenario) *int { return &s.Model.KVHeads }),
	intField("model.ffn_hidden", "ffn_hidden", func(s *Scenario) *int { return &s.Model.FFNHidden }),
	intField("model.vocab", "vocab", func(s *Scenario) *int { return &s.Model.Vocab }),
	intField("model.seq_len", "seq_len", func(s *Scenario) *int { return &s.Model.SeqLen }),
	stringField("model.attention", "attention", "flash (the default), eager or mla", func(s *Scenario) *string { return &s.Model.Attention }),
	timeField("model.synthetic.forward", "tf", func(s *Scenario) *units.Time { return &s.Model.Synthetic.Forward }),
	timeField("model.synthetic.backward_input", "tb", func(s *Scenario) *units.Time { return &s.Model.Synthetic.BackwardInput }),
	timeField("model.synthetic.backward_weight", "tw", func(s *Scenario) *units.Time { return &s.Model.Synthetic.BackwardWeight }),
}

// planFields are the keys after the model's.
var planFields = []Field{
	intField("parallel.dp", "dp", func(s *Scenario) *int { return &s.Parallel.DP }),
	intField("parallel.tp", "tp", func(s *Scenario) *int { return &s.Parallel.TP }),
	intField("parallel.pp", "pp", func(s *Scenario) *int { return &s.Parallel.PP }),
	intField("parallel.cp", "cp", func(s *Scenario) *int { return &s.Parallel.CP }),
	intField("parallel.ep", "ep", func(s *Scenario) *int { return &s.Parallel.EP }),
	intField("parallel.etp", "etp", func(s *Scenario) *int { return &s.Parallel.ETP }),
	intField("parallel.zero", "zero", func(s *Scenario) *int { return &s.Parallel.ZeRO }),
	intField("parallel.zero_group", "zero_group", func(s *Scenario) *int { return &s.Parallel.ZeROGroup }),
	intField("parallel.zero_layers", "zero_layers", func(s *Scenario) *int { return &s.Parallel.ZeROLayers }),
	{"parallel.schedule", "schedule", strings.Join(pipeline.Names(), ", "), func(s *Scenario) string { return s.Parallel.Schedule },
		func(s *Scenario, v string) error { s.Parallel.Schedule = v; return nil }},
	intField("parallel.virtual_stages", "virtual_stages", func(s *Scenario) *int { return &s.Parallel.VirtualStages }),
	intField("parallel.microbatches", "microbatches", func(s *Scenario) *int { return &s.Parallel.Microbatches }),
	intField("parallel.micro_batch_size", "micro_batch_size", func(s *Scenario) *int { return &s.Parallel.MicroBatchSize }),
	{"parallel.sequence_parallel", "sequence_parallel", "true or false", func(s *Scenario) string { return strconv.FormatBool(s.Parallel.SequenceParallel) },
		func(s *Scenario, v string) error { return assign(&s.Parallel.SequenceParallel, v, parseBool) }},
	{"parallel.tp_comm_overlap", "tp_comm_overlap", "true or false", func(s *Scenario) string { return strconv.FormatBool(s.Parallel.TPCommOverlap) },
		func(s *Scenario, v string) error { return assign(&s.Parallel.TPCommOverlap, v, parseBool) }},
	{"parallel.grad_reduce", "grad_reduce", "overlap or after_backward", func(s *Scenario) string { return s.Parallel.GradReduce },
		func(s *Scenario, v string) error { s.Parallel.GradReduce = v; return nil }},
	{"parallel.p2p", "p2p", "async, blocking or blocking_list", func(s *Scenario) string { return s.Parallel.P2P },
		func(s *Scenario, v string) error { s.Parallel.P2P = v; return nil }},
	{"parallel.cyclic", "cyclic", "true or false", func(s *Scenario) string { return strconv.FormatBool(s.Parallel.Cyclic) },
		func(s *Scenario, v string) error { return assign(&s.Parallel.Cyclic, v, parseBool) }},
	{"parallel.recompute", "recompute", "none, selective or full", func(s *Scenario) string { return s.Parallel.Recompute },
		func(s *Scenario, v string) error { s.Parallel.Recompute = v; return nil }},
	{"parallel.recompute_modules", "recompute_modules", "with recompute selective: core_attn, moe_act, layernorm, mla_up_proj, comma-separated", func(s *Scenario) string { return s.Parallel.RecomputeModules },
		func(s *Scenario, v string) error { s.Parallel.RecomputeModules = v; return nil }},
	{"parallel.order", "order", "dimensions innermost first, e.g. tp,cp,pp,dp", func(s *Scenario) string { return s.Parallel.Order },
		func(s *Scenario, v string) error { s.Parallel.Order = v; return nil }},
	intField("parallel.mesh.data", "mesh_data", func(s *Scenario) *int { return &s.Parallel.Mesh.Data }),
	intField("parallel.mesh.fsdp", "mesh_fsdp", func(s *Scenario) *int { return &s.Parallel.Mesh.FSDP }),
	intField("parallel.mesh.seq", "mesh_seq", func(s *Scenario) *int { return &s.Parallel.Mesh.Seq }),
	intField("parallel.mesh.model", "mesh_model", func(s *Scenario) *int { return &s.Parallel.Mesh.Model }),
	{"training.precision", "precision", "bf16, fp16 or fp8", func(s *Scenario) string { return s.Training.Precision },
		func(s *Scenario, v string) error { s.Training.Precision = v; return nil }},
	{"training.optimizer", "optimizer", "adam", func(s *Scenario) string { return s.Training.Optimizer },
		func(s *Scenario, v string) error { s.Training.Optimizer = v; return nil }},
	{"training.efficiency", "efficiency", "a fraction, e.g. 0.5", func(s *Scenario) string { return strconv.FormatFloat(s.Training.Efficiency, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Training.Efficiency) }},
	{"training.grad_accumulation", "grad_accumulation", "fused or unfused", func(s *Scenario) string { return s.Training.GradAccumulation },
		func(s *Scenario, v string) error { s.Training.GradAccumulation = v; return nil }},
	{"training.fp8_activation_cache", "fp8_activation_cache", "true or false (with precision fp8)", func(s *Scenario) string { return strconv.FormatBool(s.Training.FP8ActivationCache) },
		func(s *Scenario, v string) error { return assign(&s.Training.FP8ActivationCache, v, parseBool) }},
	tokensField,
	{"parallel.partition", "partition", "equal, balanced or operators", func(s *Scenario) string { return s.Parallel.Partition },
		func(s *Scenario, v string) error { s.Parallel.Partition = v; return nil }},
	{"parallel.layers_per_stage", "layers_per_stage", "layers of each model stage, e.g. 7,8*14,7", func(s *Scenario) string { return FormatLayerCounts(s.Parallel.LayersPerStage) },
		func(s *Scenario, v string) error { return assign(&s.Parallel.LayersPerStage, v, ParseLayerCounts) }},
	intField("parallel.first_last_fewer", "first_last_fewer", func(s *Scenario) *int { return &s.Parallel.FirstLastFewer }),
	{"cluster.node_gpus", "node_gpus", "GPU presets per node, e.g. h100-sxm*2,a100-sxm-80gb*2", func(s *Scenario) string { return FormatNodeGPUs(s.Cluster.NodeGPUs) },
		func(s *Scenario, v string) error { return assign(&s.Cluster.NodeGPUs, v, ParseNodeGPUs) }},
	{"data.seq_dist", "seq_dist", "fixed, uniform or lognormal", func(s *Scenario) string { return s.Data.SeqDist },
		func(s *Scenario, v string) error { s.Data.SeqDist = v; return nil }},
	{"data.seq_cv", "seq_cv", "a number, e.g. 0.5", func(s *Scenario) string { return strconv.FormatFloat(s.Data.SeqCV, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Data.SeqCV) }},
	stringField("data.assign", "assign", "random or balanced", func(s *Scenario) *string { return &s.Data.Assign }),
	intField("iterations", "iterations", func(s *Scenario) *int { return &s.Iterations }),
	{"faults", "faults", "events, e.g. kind=fail_slow,at=0s,gpu=3,factor=0.4;kind=fail_stop,at=2.5s,gpu=1", func(s *Scenario) string { return FormatFaults(s.Faults) },
		func(s *Scenario, v string) error { return assign(&s.Faults, v, ParseFaults) }},
	{"straggler.cv", "straggler_cv", "a fraction, e.g. 0.1", func(s *Scenario) string { return strconv.FormatFloat(s.Straggler.CV, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Straggler.CV) }},
	{"recovery.policy", "recovery", "checkpoint-restart, elastic, replan, redundant, reroute or resihp", func(s *Scenario) string { return s.Recovery.Policy },
		func(s *Scenario, v string) error { s.Recovery.Policy = v; return nil }},
	timeField("recovery.checkpoint_interval", "ckpt_interval", func(s *Scenario) *units.Time { return &s.Recovery.CheckpointInterval }),
	timeField("recovery.checkpoint_cost", "ckpt_cost", func(s *Scenario) *units.Time { return &s.Recovery.CheckpointCost }),
	timeField("recovery.restart_cost", "restart_cost", func(s *Scenario) *units.Time { return &s.Recovery.RestartCost }),
	timeField("recovery.heartbeat_timeout", "heartbeat", func(s *Scenario) *units.Time { return &s.Recovery.HeartbeatTimeout }),
	timeField("recovery.reconfigure_cost", "reconfig_cost", func(s *Scenario) *units.Time { return &s.Recovery.ReconfigureCost }),
	{"failures.rate_per_node_day", "fail_rate", "failures per node-day, e.g. 0.0038", func(s *Scenario) string { return strconv.FormatFloat(s.Failures.RatePerNodeDay, 'g', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Failures.RatePerNodeDay) }},
	{"failures.causes", "causes", "cause:weight list, e.g. gpu:190,software:63", func(s *Scenario) string { return s.Failures.Causes },
		func(s *Scenario, v string) error { s.Failures.Causes = v; return nil }},
	{"failures.seed", "fail_seed", "a whole number ≥ 0 (0 = the scenario's seed)", func(s *Scenario) string { return strconv.FormatUint(s.Failures.Seed, 10) },
		func(s *Scenario, v string) error { return assign(&s.Failures.Seed, v, parseSeed) }},
	timeField("failures.repair_time", "repair_time", func(s *Scenario) *units.Time { return &s.Failures.RepairTime }),
	timeField("failures.duration", "fail_duration", func(s *Scenario) *units.Time { return &s.Failures.Duration }),
	{"sync.mode", "sync", "bsp, asp, ssp or dssp", func(s *Scenario) string { return s.Sync.Mode },
		func(s *Scenario, v string) error { s.Sync.Mode = v; return nil }},
	intField("sync.staleness", "staleness", func(s *Scenario) *int { return &s.Sync.Staleness }),
	intField("sync.staleness_range", "staleness_range", func(s *Scenario) *int { return &s.Sync.StalenessRange }),
	intField("sync.servers", "servers", func(s *Scenario) *int { return &s.Sync.Servers }),
	{"sync.server_bandwidth", "ps_bw", "e.g. 100GB/s, or 0 for link.bandwidth", func(s *Scenario) string { return formatBandwidthOrZero(s.Sync.ServerBandwidth) },
		func(s *Scenario, v string) error { return assign(&s.Sync.ServerBandwidth, v, parseBandwidthOrZero) }},
	{"sync.speeds", "speeds", "speed factors, one per GPU, e.g. 1,1,0.5,0.25", func(s *Scenario) string { return formatSpeeds(s.Sync.Speeds) },
		func(s *Scenario, v string) error { return assign(&s.Sync.Speeds, v, parseSpeeds) }},
	intField("sync.period", "period", func(s *Scenario) *int { return &s.Sync.Period }),
	intField("sync.layers", "layer_groups", func(s *Scenario) *int { return &s.Sync.Layers }),
	{"compression.ratio", "compress", "a fraction sent, e.g. 0.1 (1 = off)", func(s *Scenario) string { return strconv.FormatFloat(s.Compression.Ratio, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Compression.Ratio) }},
	timeField("compression.time_per_mib", "compress_cost", func(s *Scenario) *units.Time { return &s.Compression.TimePerMiB }),
	{"compression.activations", "compress_act", "a fraction of activation bytes sent, e.g. 0.5 (1 = off)", func(s *Scenario) string { return strconv.FormatFloat(s.Compression.Activations, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Compression.Activations) }},
	{"compression.parameters", "compress_params", "a fraction of ZeRO's gathered parameter bytes sent, e.g. 0.5 (1 = off)", func(s *Scenario) string { return strconv.FormatFloat(s.Compression.Parameters, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Compression.Parameters) }},
	{"compression.rank", "compress_rank", "a whole number, e.g. 20 (0 = off)", func(s *Scenario) string { return strconv.Itoa(s.Compression.Rank) },
		func(s *Scenario, v string) error { return parseInt(v, &s.Compression.Rank) }},
	{"compression.method", "compress_method", "scaled or slim-dp", func(s *Scenario) string { return s.Compression.Method },
		func(s *Scenario, v string) error { s.Compression.Method = strings.TrimSpace(v); return nil }},
}

// tailFields close the field table, after every registered section.
var tailFields = []Field{
	{"seed", "seed", "a whole number ≥ 0", func(s *Scenario) string { return strconv.FormatUint(s.Seed, 10) },
		func(s *Scenario, v string) error { return assign(&s.Seed, v, parseSeed) }},
}

func fieldByKey(key string) *Field {
	fields := allFields()
	for i := range fields {
		if fields[i].Key == key {
			return &fields[i]
		}
	}
	return nil
}

func fieldByParam(param string) *Field {
	fields := allFields()
	for i := range fields {
		if fields[i].Param == param {
			return &fields[i]
		}
	}
	return nil
}

func knownKeys() string {
	fields := allFields()
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
	}
	return strings.Join(keys, ", ")
}

func parseInt(v string, dst *int) error {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil {
		return fmt.Errorf("invalid whole number %q", v)
	}
	*dst = int(n)
	return nil
}

func parseFloat(v string, dst *float64) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return fmt.Errorf("invalid number %q: want a decimal fraction such as 0.1", v)
	}
	*dst = f
	return nil
}

// assign parses v and stores it only on success, so a field that fails to
// parse keeps its previous value and Validate does not report it twice.
func assign[T any](dst *T, v string, parse func(string) (T, error)) error {
	x, err := parse(v)
	if err == nil {
		*dst = x
	}
	return err
}

func parseSeed(v string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid seed %q: want a whole number from 0 to 18446744073709551615", v)
	}
	return n, nil
}

// flatten lists the errors inside a joined error, so every problem is
// reported on its own line.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// The field constructors are not inlined: the table's init would build
// every row's closures in place, which costs the browser's download.
//
//go:noinline
func intField(key, param string, at func(*Scenario) *int) Field {
	return Field{key, param, "a whole number", func(s *Scenario) string { return strconv.Itoa(*at(s)) },
		func(s *Scenario, v string) error { return parseInt(v, at(s)) }}
}

//go:noinline
func stringField(key, param, help string, at func(*Scenario) *string) Field {
	return Field{key, param, help, func(s *Scenario) string { return *at(s) },
		func(s *Scenario, v string) error { *at(s) = strings.TrimSpace(v); return nil }}
}

//go:noinline
func timeField(key, param string, at func(*Scenario) *units.Time) Field {
	return Field{key, param, "e.g. 1ms", func(s *Scenario) string { return at(s).String() },
		func(s *Scenario, v string) error { return assign(at(s), v, units.ParseTime) }}
}

func parseBool(v string) (bool, error) {
	switch strings.TrimSpace(v) {
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, fmt.Errorf("invalid switch %q: want true or false", v)
}

// formatBandwidthOrZero writes a bandwidth, or "0" for "use the default".
func formatBandwidthOrZero(b units.Bandwidth) string {
	if b == 0 {
		return "0"
	}
	return b.String()
}

// parseBandwidthOrZero reads a bandwidth, or 0 for "use the default".
func parseBandwidthOrZero(v string) (units.Bandwidth, error) {
	if t := strings.TrimSpace(v); t == "0" || t == "" {
		return 0, nil
	}
	return units.ParseBandwidth(v)
}

// Problems lists the errors inside a joined error, such as Validate's, one
// problem each.
func Problems(err error) []error { return flatten(err) }
