package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/units"
)

// field is one row of the declarative table that maps a scenario field to its
// YAML key and URL parameter. Every reader and writer goes through it, so the
// file format and the URL format cannot drift apart.
type field struct {
	key   string // dotted YAML/JSON key, e.g. "link.bandwidth"
	param string // URL query parameter, e.g. "bw"
	help  string // what the value looks like, for error messages
	get   func(*Scenario) string
	set   func(*Scenario, string) error
}

var fields = []field{
	{"name", "name", "text", func(s *Scenario) string { return s.Name },
		func(s *Scenario, v string) error { s.Name = v; return nil }},
	{"strategy", "strategy", StrategyDataParallel, func(s *Scenario) string { return s.Strategy },
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
	{"collective.op", "op", "e.g. all_reduce", func(s *Scenario) string { return s.Collective.Op },
		func(s *Scenario, v string) error { s.Collective.Op = v; return nil }},
	{"collective.algorithm", "algo", "e.g. ring", func(s *Scenario) string { return s.Collective.Algorithm },
		func(s *Scenario, v string) error { s.Collective.Algorithm = v; return nil }},
	{"collective.size", "size", "e.g. 256MiB", func(s *Scenario) string { return s.Collective.Size.String() },
		func(s *Scenario, v string) error { return assign(&s.Collective.Size, v, units.ParseBytes) }},
	{"collective.chunks", "chunks", "a whole number", func(s *Scenario) string { return strconv.Itoa(s.Collective.Chunks) },
		func(s *Scenario, v string) error { return parseInt(v, &s.Collective.Chunks) }},
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
	timeField("model.synthetic.forward", "tf", func(s *Scenario) *units.Time { return &s.Model.Synthetic.Forward }),
	timeField("model.synthetic.backward_input", "tb", func(s *Scenario) *units.Time { return &s.Model.Synthetic.BackwardInput }),
	timeField("model.synthetic.backward_weight", "tw", func(s *Scenario) *units.Time { return &s.Model.Synthetic.BackwardWeight }),
	intField("parallel.dp", "dp", func(s *Scenario) *int { return &s.Parallel.DP }),
	intField("parallel.tp", "tp", func(s *Scenario) *int { return &s.Parallel.TP }),
	intField("parallel.pp", "pp", func(s *Scenario) *int { return &s.Parallel.PP }),
	intField("parallel.cp", "cp", func(s *Scenario) *int { return &s.Parallel.CP }),
	intField("parallel.ep", "ep", func(s *Scenario) *int { return &s.Parallel.EP }),
	intField("parallel.zero", "zero", func(s *Scenario) *int { return &s.Parallel.ZeRO }),
	{"parallel.schedule", "schedule", "gpipe, 1f1b, interleaved, zb-h1, zb-h2, zb-v, dualpipev, pipedream-async, local-loss", func(s *Scenario) string { return s.Parallel.Schedule },
		func(s *Scenario, v string) error { s.Parallel.Schedule = v; return nil }},
	intField("parallel.virtual_stages", "virtual_stages", func(s *Scenario) *int { return &s.Parallel.VirtualStages }),
	intField("parallel.microbatches", "microbatches", func(s *Scenario) *int { return &s.Parallel.Microbatches }),
	intField("parallel.micro_batch_size", "micro_batch_size", func(s *Scenario) *int { return &s.Parallel.MicroBatchSize }),
	{"parallel.sequence_parallel", "sequence_parallel", "true or false", func(s *Scenario) string { return strconv.FormatBool(s.Parallel.SequenceParallel) },
		func(s *Scenario, v string) error { return assign(&s.Parallel.SequenceParallel, v, parseBool) }},
	{"parallel.recompute", "recompute", "none, selective or full", func(s *Scenario) string { return s.Parallel.Recompute },
		func(s *Scenario, v string) error { s.Parallel.Recompute = v; return nil }},
	{"parallel.order", "order", "dimensions innermost first, e.g. tp,cp,pp,dp", func(s *Scenario) string { return s.Parallel.Order },
		func(s *Scenario, v string) error { s.Parallel.Order = v; return nil }},
	{"training.precision", "precision", "bf16 or fp16", func(s *Scenario) string { return s.Training.Precision },
		func(s *Scenario, v string) error { s.Training.Precision = v; return nil }},
	{"training.optimizer", "optimizer", "adam", func(s *Scenario) string { return s.Training.Optimizer },
		func(s *Scenario, v string) error { s.Training.Optimizer = v; return nil }},
	{"training.efficiency", "efficiency", "a fraction, e.g. 0.5", func(s *Scenario) string { return strconv.FormatFloat(s.Training.Efficiency, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Training.Efficiency) }},
	{"parallel.partition", "partition", "equal or balanced", func(s *Scenario) string { return s.Parallel.Partition },
		func(s *Scenario, v string) error { s.Parallel.Partition = v; return nil }},
	{"cluster.node_gpus", "node_gpus", "GPU presets per node, e.g. h100-sxm*2,a100-sxm-80gb*2", func(s *Scenario) string { return FormatNodeGPUs(s.Cluster.NodeGPUs) },
		func(s *Scenario, v string) error { return assign(&s.Cluster.NodeGPUs, v, ParseNodeGPUs) }},
	{"data.seq_dist", "seq_dist", "fixed, uniform or lognormal", func(s *Scenario) string { return s.Data.SeqDist },
		func(s *Scenario, v string) error { s.Data.SeqDist = v; return nil }},
	{"data.seq_cv", "seq_cv", "a number, e.g. 0.5", func(s *Scenario) string { return strconv.FormatFloat(s.Data.SeqCV, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Data.SeqCV) }},
	intField("iterations", "iterations", func(s *Scenario) *int { return &s.Iterations }),
	{"faults", "faults", "events, e.g. kind=fail_slow,at=0s,gpu=3,factor=0.4;kind=fail_stop,at=2.5s,gpu=1", func(s *Scenario) string { return FormatFaults(s.Faults) },
		func(s *Scenario, v string) error { return assign(&s.Faults, v, ParseFaults) }},
	{"straggler.cv", "straggler_cv", "a fraction, e.g. 0.1", func(s *Scenario) string { return strconv.FormatFloat(s.Straggler.CV, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Straggler.CV) }},
	{"recovery.policy", "recovery", "checkpoint-restart, elastic, replan, redundant or reroute", func(s *Scenario) string { return s.Recovery.Policy },
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
	{"split.mode", "split_mode", "split or fedavg", func(s *Scenario) string { return s.Split.Mode },
		func(s *Scenario, v string) error { s.Split.Mode = v; return nil }},
	{"split.model", "split_model", "vgg19 or vgg19-cifar", func(s *Scenario) string { return s.Split.Model },
		func(s *Scenario, v string) error { s.Split.Model = v; return nil }},
	intField("split.clients", "clients", func(s *Scenario) *int { return &s.Split.Clients }),
	{"split.device", "device", "a client device, e.g. phone, laptop, raspberry-pi-5, jetson-orin-nano", func(s *Scenario) string { return s.Split.Device },
		func(s *Scenario, v string) error { s.Split.Device = v; return nil }},
	intField("split.cut", "cut", func(s *Scenario) *int { return &s.Split.Cut }),
	intField("split.hops", "hops", func(s *Scenario) *int { return &s.Split.Hops }),
	{"split.compute_gpu", "compute_gpu", "a GPU preset, e.g. t4", func(s *Scenario) string { return s.Split.ComputeGPU },
		func(s *Scenario, v string) error { s.Split.ComputeGPU = v; return nil }},
	intField("split.batch", "batch", func(s *Scenario) *int { return &s.Split.Batch }),
	intField("split.local_steps", "local_steps", func(s *Scenario) *int { return &s.Split.LocalSteps }),
	{"split.uplink", "uplink", "e.g. 20Mbps", func(s *Scenario) string { return s.Split.Uplink.String() },
		func(s *Scenario, v string) error { return assign(&s.Split.Uplink, v, units.ParseBandwidth) }},
	{"split.downlink", "downlink", "e.g. 100Mbps", func(s *Scenario) string { return s.Split.Downlink.String() },
		func(s *Scenario, v string) error { return assign(&s.Split.Downlink, v, units.ParseBandwidth) }},
	timeField("split.client_latency", "client_lat", func(s *Scenario) *units.Time { return &s.Split.ClientLatency }),
	{"split.server_bandwidth", "server_bw", "e.g. 100Gbps", func(s *Scenario) string { return s.Split.ServerBandwidth.String() },
		func(s *Scenario, v string) error { return assign(&s.Split.ServerBandwidth, v, units.ParseBandwidth) }},
	{"split.hop_bandwidth", "hop_bw", "e.g. 10Gbps", func(s *Scenario) string { return s.Split.HopBandwidth.String() },
		func(s *Scenario, v string) error { return assign(&s.Split.HopBandwidth, v, units.ParseBandwidth) }},
	timeField("split.hop_latency", "hop_lat", func(s *Scenario) *units.Time { return &s.Split.HopLatency }),
	{"split.speeds", "client_speeds", "speed factors, one per client, e.g. 1,1,0.25", func(s *Scenario) string { return formatSpeeds(s.Split.Speeds) },
		func(s *Scenario, v string) error { return assign(&s.Split.Speeds, v, parseSpeeds) }},
	{"split.speed_cv", "speed_cv", "a number 0..2, e.g. 0.5", func(s *Scenario) string { return strconv.FormatFloat(s.Split.SpeedCV, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.Split.SpeedCV) }},
	{"rlhf.placement", "placement", "co-located, interleaved or disaggregated", func(s *Scenario) string { return s.RLHF.Placement },
		func(s *Scenario, v string) error { s.RLHF.Placement = v; return nil }},
	stringField("rlhf.actor", "actor", "a model preset, e.g. llama3-8b", func(s *Scenario) *string { return &s.RLHF.Actor }),
	stringField("rlhf.critic", "critic", "a model preset, or none", func(s *Scenario) *string { return &s.RLHF.Critic }),
	stringField("rlhf.reward", "reward", "a model preset", func(s *Scenario) *string { return &s.RLHF.Reward }),
	stringField("rlhf.reference", "reference", "a model preset", func(s *Scenario) *string { return &s.RLHF.Reference }),
	intField("rlhf.prompts", "prompts", func(s *Scenario) *int { return &s.RLHF.Prompts }),
	intField("rlhf.prompt_len", "prompt_len", func(s *Scenario) *int { return &s.RLHF.PromptLen }),
	intField("rlhf.response_len", "response_len", func(s *Scenario) *int { return &s.RLHF.ResponseLen }),
	intField("rlhf.gen_gpus", "gen_gpus", func(s *Scenario) *int { return &s.RLHF.GenGPUs }),
	intField("rlhf.gen_tp", "gen_tp", func(s *Scenario) *int { return &s.RLHF.GenTP }),
	stringField("rlhf.gen_gpu", "gen_gpu", "a GPU preset, e.g. h20", func(s *Scenario) *string { return &s.RLHF.GenGPU }),
	stringField("rlhf.train_gpu", "train_gpu", "a GPU preset, e.g. h100-sxm", func(s *Scenario) *string { return &s.RLHF.TrainGPU }),
	{"rlhf.gen_price", "gen_price", "dollars per GPU-hour, 0 = assumed rate", func(s *Scenario) string { return strconv.FormatFloat(s.RLHF.GenPrice, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.RLHF.GenPrice) }},
	{"rlhf.train_price", "train_price", "dollars per GPU-hour, 0 = assumed rate", func(s *Scenario) string { return strconv.FormatFloat(s.RLHF.TrainPrice, 'f', -1, 64) },
		func(s *Scenario, v string) error { return parseFloat(v, &s.RLHF.TrainPrice) }},
	intField("rlhf.queue", "queue", func(s *Scenario) *int { return &s.RLHF.Queue }),
	intField("rlhf.staleness", "eta", func(s *Scenario) *int { return &s.RLHF.Staleness }),
	intField("rlhf.sync_every", "sync_every", func(s *Scenario) *int { return &s.RLHF.SyncEvery }),
	{"rlhf.sync_bandwidth", "sync_bw", "e.g. 50GB/s, or 0 for ib-ndr", func(s *Scenario) string { return formatBandwidthOrZero(s.RLHF.SyncBandwidth) },
		func(s *Scenario, v string) error { return assign(&s.RLHF.SyncBandwidth, v, parseBandwidthOrZero) }},
	intField("inference.requests", "requests", func(s *Scenario) *int { return &s.Inference.Requests }),
	intField("inference.prompt", "prompt", func(s *Scenario) *int { return &s.Inference.Prompt }),
	intField("inference.output", "output", func(s *Scenario) *int { return &s.Inference.Output }),
	intField("inference.microbatches", "inf_microbatches", func(s *Scenario) *int { return &s.Inference.Microbatches }),
	{"inference.sampling", "sampling", "gpu or cpu", func(s *Scenario) string { return s.Inference.Sampling },
		func(s *Scenario, v string) error { s.Inference.Sampling = v; return nil }},
	timeField("inference.sample_time", "sample_time", func(s *Scenario) *units.Time { return &s.Inference.SampleTime }),
	timeField("inference.cpu_sample_time", "cpu_sample_time", func(s *Scenario) *units.Time { return &s.Inference.CPUSampleTime }),
	timeField("inference.host_time", "host_time", func(s *Scenario) *units.Time { return &s.Inference.HostTime }),
	{"inference.async_host", "async_host", "true or false", func(s *Scenario) string { return strconv.FormatBool(s.Inference.AsyncHost) },
		func(s *Scenario, v string) error { return assign(&s.Inference.AsyncHost, v, parseBool) }},
	timeField("inference.send_overhead", "send_overhead", func(s *Scenario) *units.Time { return &s.Inference.SendOverhead }),
	{"inference.shared_weights", "shared_weights", "none, fetch or ship", func(s *Scenario) string { return s.Inference.SharedWeights },
		func(s *Scenario, v string) error { s.Inference.SharedWeights = v; return nil }},
	{"seed", "seed", "a whole number ≥ 0", func(s *Scenario) string { return strconv.FormatUint(s.Seed, 10) },
		func(s *Scenario, v string) error { return assign(&s.Seed, v, parseSeed) }},
}

func fieldByKey(key string) *field {
	for i := range fields {
		if fields[i].key == key {
			return &fields[i]
		}
	}
	return nil
}

func fieldByParam(param string) *field {
	for i := range fields {
		if fields[i].param == param {
			return &fields[i]
		}
	}
	return nil
}

func knownKeys() string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
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

func intField(key, param string, at func(*Scenario) *int) field {
	return field{key, param, "a whole number", func(s *Scenario) string { return strconv.Itoa(*at(s)) },
		func(s *Scenario, v string) error { return parseInt(v, at(s)) }}
}

func stringField(key, param, help string, at func(*Scenario) *string) field {
	return field{key, param, help, func(s *Scenario) string { return *at(s) },
		func(s *Scenario, v string) error { *at(s) = strings.TrimSpace(v); return nil }}
}

func timeField(key, param string, at func(*Scenario) *units.Time) field {
	return field{key, param, "e.g. 1ms", func(s *Scenario) string { return at(s).String() },
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

// trainingKey reports whether a key belongs to a training scenario, so
// that a file or URL that sets one and no strategy is a training scenario.
func trainingKey(key string) bool {
	for _, p := range []string{"model.", "parallel.", "training.", "data.", "straggler.", "recovery.", "failures."} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return key == "faults" || key == "iterations" || key == "cluster.node_gpus"
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
