package plan

import (
	"errors"
	"strings"

	"paraplay/sim/cost"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// Limits on a Config.
const (
	// MaxGlobalBatch bounds Config.GlobalBatch, in sequences.
	MaxGlobalBatch = 1 << 20
	// DefaultMaxMicroBatch is the largest micro-batch size tried when
	// Config.MaxMicroBatch is 0.
	DefaultMaxMicroBatch = 4
	// MaxMicroBatch bounds Config.MaxMicroBatch.
	MaxMicroBatch = 64
	// MaxDetailed bounds Config.Detailed: a detailed run of a large plan
	// takes seconds.
	MaxDetailed = 16
	// MaxSimulationsLimit bounds Config.MaxSimulations.
	MaxSimulationsLimit = 1 << 20
)

// Config is what to plan for: a model, a cluster and a global batch.
type Config struct {
	// Model is the network: a preset (model.preset, e.g. llama3-70b) with
	// optional shape overrides such as seq_len. Synthetic models have no
	// shape to split and are refused.
	Model scenario.Model
	// Cluster is the hardware, as in a scenario: cluster.gpu (required),
	// nodes, gpus_per_node (required), intra, inter, network; or a TPU
	// slice (cluster.topology, slices, twisted, wraparound), whose plans
	// are meshes (enumerate). Every plan uses all nodes × gpus_per_node
	// GPUs, or all the slice's chips.
	Cluster scenario.Cluster
	// GlobalBatch is the number of sequences per iteration, 1..MaxGlobalBatch:
	// dp × microbatches × micro_batch_size for every plan.
	GlobalBatch int
	// Training holds precision, optimizer, efficiency and the token
	// budget, as in a scenario (zero values: bf16, adam, the GPU preset's
	// efficiency, no budget).
	Training scenario.Training
	// Cost prices the plans (the scenario's cost section; zero values:
	// the presets' assumed rates, cost.DefaultPUE, cost.DefaultGridKgPerKWh).
	Cost training.Cost
	// MaxMicroBatch is the largest micro-batch size b tried, 1..MaxMicroBatch
	// (0 = DefaultMaxMicroBatch); b runs over the powers of two up to it.
	MaxMicroBatch int
	// CrossNodeTP lets a tensor-parallel group span servers; by default tp
	// is at most gpus_per_node, as every published plan keeps it on NVLink.
	CrossNodeTP bool
	// ZeROLayers also tries, for every ZeRO-3 plan, per-layer sharding
	// (parallel.zero_layers, OSDP): ZeRO-3 on the first k layers and ZeRO-2
	// on the rest, for k = L/8, 2L/8, …, 7L/8 (rounded, distinct); on
	// the host only (perlayer.go).
	ZeROLayers bool
	// Exhaustive simulates every plan that fits in memory, instead of
	// skipping those whose lower bound cannot beat the best found, and
	// on a TPU slice tries every order of the torus axes as the mesh's
	// layout (meshLayouts), not one of each alike.
	Exhaustive bool
	// Detailed re-simulates the best Detailed plans at detailed fidelity,
	// 0..MaxDetailed.
	Detailed int
	// MaxSimulations caps the analytic simulations, 0..MaxSimulationsLimit
	// (0 = no cap). At thousands of GPUs one simulation takes seconds and
	// the bound separates the plans poorly; a capped search stops early,
	// marks the contenders it did not reach Unsimulated, and reports in
	// Result.Floor how much better than its best any of them could be.
	MaxSimulations int
}

// GPUs is the number of GPUs every plan uses: nodes × gpus_per_node, or
// the chips of a TPU slice (cluster.topology).
func (c Config) GPUs() int {
	if c.Cluster.Topology != "" {
		s := scenario.Scenario{Cluster: c.Cluster}
		return s.NumGPUs()
	}
	return max(1, c.Cluster.Nodes) * c.Cluster.GPUsPerNode
}

// maxMicroBatch is MaxMicroBatch with its default applied.
func (c Config) maxMicroBatch() int {
	if c.MaxMicroBatch == 0 {
		return DefaultMaxMicroBatch
	}
	return c.MaxMicroBatch
}

// Validate checks the config and returns all its problems at once, each a
// *scenario.FieldError naming the field (model.*, cluster.*, training.* as
// in a scenario; global_batch, max_micro_batch, detailed for the search).
func (c Config) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, scenario.Fieldf(field, format, args))
	}
	if c.GlobalBatch < 1 || c.GlobalBatch > MaxGlobalBatch {
		bad("global_batch", "is %d; allowed 1..%d sequences", c.GlobalBatch, MaxGlobalBatch)
	}
	if c.MaxMicroBatch < 0 || c.MaxMicroBatch > MaxMicroBatch {
		bad("max_micro_batch", "is %d; allowed 1..%d (0 = %d)", c.MaxMicroBatch, MaxMicroBatch, DefaultMaxMicroBatch)
	}
	if c.Detailed < 0 || c.Detailed > MaxDetailed {
		bad("detailed", "is %d; allowed 0..%d", c.Detailed, MaxDetailed)
	}
	if c.MaxSimulations < 0 || c.MaxSimulations > MaxSimulationsLimit {
		bad("max_simulations", "is %d; allowed 0..%d (0 = no cap)", c.MaxSimulations, MaxSimulationsLimit)
	}
	if c.Model.IsSynthetic() {
		bad("model.synthetic", "is set; the planner splits a real model's layers (give model.preset)")
	}
	if c.Cluster.GPU == "" {
		bad("cluster.gpu", "is empty; give a GPU preset, e.g. h100-sxm")
	}
	if c.Cluster.GPUsPerNode < 1 && c.Cluster.Topology == "" {
		bad("cluster.gpus_per_node", "is %d; give the GPUs per server, 1..%d", c.Cluster.GPUsPerNode, scenario.MaxPerNode)
	}
	if len(c.Cluster.NodeGPUs) > 0 {
		bad("cluster.node_gpus", "is set; the planner plans for one GPU type")
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// The model, cluster and training sections, checked by the scenario's
	// own validation on the simplest plan: pure data parallelism.
	base := c.scenario()
	base.Parallel.DP = c.GPUs()
	if err := base.Validate(); err != nil {
		for _, e := range flatten(err) {
			var fe *scenario.FieldError
			if errors.As(e, &fe) && strings.HasPrefix(fe.Field, "parallel.") {
				continue // the plan is ours to choose
			}
			errs = append(errs, e)
		}
	}
	return errors.Join(errs...)
}

// scenario is the training scenario every plan starts from: the config's
// model, cluster and training sections, analytic fidelity, the default
// plan fields.
func (c Config) scenario() scenario.Scenario {
	s := scenario.Default()
	s.Strategy = training.Name
	s.Fidelity = "analytic"
	s.Model = c.Model
	s.Cluster = c.Cluster
	if c.Training.Precision != "" {
		s.Training.Precision = c.Training.Precision
	}
	if c.Training.Optimizer != "" {
		s.Training.Optimizer = c.Training.Optimizer
	}
	s.Training.Efficiency = c.Training.Efficiency
	s.Training.Tokens = c.Training.Tokens
	if c.Cost != (training.Cost{}) {
		set := c.Cost
		if set.PUE == 0 {
			set.PUE = cost.DefaultPUE
		}
		if set.GridKgPerKWh == 0 {
			set.GridKgPerKWh = cost.DefaultGridKgPerKWh
		}
		scenario.Put(&s, "cost", set)
	}
	return s
}

// flatten lists the errors inside a joined error.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}
