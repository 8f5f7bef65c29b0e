package scenario

import (
	"errors"
	"fmt"
	"strings"

	"paraplay/sim/units"
)

// Limits on the scenario. They keep a run small enough to animate and keep
// fuzzed or hostile input from asking for absurd work.
const (
	MinGPUs = 2
	// MaxGPUs bounds the gpus field: the GPUs of one node.
	MaxGPUs = 64
	// MaxClusterGPUs bounds nodes × gpus_per_node for a training scenario,
	// whose collectives turn analytic above 512 GPUs.
	MaxClusterGPUs = 65536
	// MaxDetailedGPUs bounds the other strategies, which simulate every
	// message of their collective.
	MaxDetailedGPUs = 512
	// MaxBuffer caps the gradient buffer at 1 TiB.
	MaxBuffer = units.TiB
	// MaxCompute caps a synthetic forward or backward span at one hour.
	MaxCompute = 3600 * units.Second
	// MaxLatency caps α at one second.
	MaxLatency = units.Second
	// MinBandwidth and MaxBandwidth bound a link's rate: 1 MB/s to 100 TB/s.
	MinBandwidth units.Bandwidth = 1e6
	MaxBandwidth units.Bandwidth = 1e14
)

// Strategies the simulator knows.
const (
	// StrategyDataParallel: every GPU computes forward and backward, then
	// the GPUs all-reduce their gradients.
	StrategyDataParallel = "data-parallel"
	// StrategyCollective: one collective operation alone, as nccl-tests
	// runs it, on a ring of GPUs or on a cluster of presets.
	StrategyCollective = "collective"
	// StrategyTraining: one iteration of a real (or synthetic) model under
	// a hybrid plan: dp, tp, pp, cp, ep, ZeRO, a pipeline schedule. A
	// scenario that sets any model or parallel key and no strategy is one.
	StrategyTraining = "training"
)

// Strategies lists every strategy, for messages and forms.
var Strategies = []string{StrategyDataParallel, StrategyCollective, StrategyTraining, StrategyParameterServer, StrategyLocalSGD, StrategySplitLearning, StrategyRLHF, StrategyInference}

// AlgorithmRing is the default algorithm.
const AlgorithmRing = "ring"

// Limits on a cluster in a scenario. The browser animates up to a few
// hundred GPUs; the command line simulates up to MaxGPUs, with analytic
// collectives above run.AutoDetailedRanks.
const (
	MaxNodes   = 8192
	MaxPerNode = 64
	MaxChunks  = 64
)

// Scenario is one run: a cluster, a workload and how it is parallelised.
type Scenario struct {
	// Name is a title for people; optional: Title makes one from the
	// settings when it is empty.
	Name string `yaml:"name" json:"name"`
	// Strategy is "data-parallel" (the default), "collective", "training",
	// "parameter-server", "local-sgd", "split-learning", "rlhf" or
	// "inference".
	Strategy string `yaml:"strategy" json:"strategy"`
	// GPUs is the number of GPUs, MinGPUs..MaxGPUs, when the cluster has
	// no gpus_per_node: then they sit in one node.
	GPUs int `yaml:"gpus" json:"gpus"`
	// Link describes the ideal links used when Cluster.GPU is empty: a
	// ring of direct links for a ring, an ideal switch otherwise.
	Link Link `yaml:"link" json:"link"`
	// Cluster, when its GPU is set, builds real hardware from presets.
	Cluster Cluster `yaml:"cluster" json:"cluster"`
	// Compute gives the synthetic durations of the compute spans.
	Compute Compute `yaml:"compute" json:"compute"`
	// Collective is the collective operation: the gradient all-reduce of
	// data parallelism, or the operation a "collective" scenario runs.
	Collective Collective `yaml:"collective" json:"collective"`
	// Model is the network trained by a "training" scenario.
	Model Model `yaml:"model" json:"model"`
	// Parallel is the hybrid plan of a "training" scenario.
	Parallel Parallel `yaml:"parallel" json:"parallel"`
	// Training holds the optimisation settings of a "training" scenario.
	Training Training `yaml:"training" json:"training"`
	// Sync is the iterations, worker speeds and synchronisation of a
	// "parameter-server" or "local-sgd" scenario.
	Sync Sync `yaml:"sync" json:"sync"`
	// Split is the clients, compute nodes and links of a
	// "split-learning" scenario.
	Split Split `yaml:"split" json:"split"`
	// Inference is the requests and CPU-side costs of an "inference"
	// scenario.
	Inference Inference `yaml:"inference" json:"inference"`
	// Compression shrinks the gradient and model traffic of a
	// "parameter-server" or "local-sgd" scenario.
	Compression Compression `yaml:"compression" json:"compression"`
	// RLHF places the four models of an "rlhf" scenario and sets its
	// rollouts, pools, queue and staleness bound.
	RLHF RLHF `yaml:"rlhf" json:"rlhf"`
	// Fidelity is how collectives are simulated: "detailed" (every
	// message), "analytic" (one α–β span per collective) or "auto"
	// (detailed up to 512 GPUs).
	Fidelity string `yaml:"fidelity" json:"fidelity"`
	// Seed drives the only randomness (compute jitter, stragglers,
	// sequence lengths); same seed, same run.
	Seed uint64 `yaml:"seed" json:"seed"`
	// Iterations is how many training iterations to simulate one after
	// another, 1..MaxIterations: faults and their recovery play out
	// across them.
	Iterations int `yaml:"iterations" json:"iterations"`
	// Faults are events that hit the cluster during a training run.
	Faults []Fault `yaml:"faults" json:"faults"`
	// Straggler is the random slowness of every op on every GPU.
	Straggler Straggler `yaml:"straggler" json:"straggler"`
	// Data is how a training batch's sequence lengths are drawn.
	Data Data `yaml:"data" json:"data"`
	// Recovery is what the job does after a GPU fails.
	Recovery Recovery `yaml:"recovery" json:"recovery"`
	// Failures is the random process of node failures of a long run.
	Failures Failures `yaml:"failures" json:"failures"`
}

// Link is the bandwidth and latency of one direction of a GPU-to-GPU link.
type Link struct {
	// Bandwidth is the rate of one direction, MinBandwidth..MaxBandwidth.
	Bandwidth units.Bandwidth `yaml:"bandwidth" json:"bandwidth"`
	// Latency is α, the fixed cost of every message, 0..MaxLatency.
	Latency units.Time `yaml:"latency" json:"latency"`
}

// Compute is the synthetic per-GPU compute of one iteration.
type Compute struct {
	// Forward is the duration of the forward pass, 1ns..MaxCompute.
	Forward units.Time `yaml:"forward" json:"forward"`
	// Backward is the duration of the backward pass, 1ns..MaxCompute.
	Backward units.Time `yaml:"backward" json:"backward"`
	// Jitter spreads each GPU's durations uniformly by ±Jitter (a fraction,
	// 0..0.9), drawn from the scenario's seed, so some GPUs finish late.
	Jitter float64 `yaml:"jitter" json:"jitter"`
}

// Cluster is real hardware from the catalog (see package hw and
// "paraplay presets").
type Cluster struct {
	// GPU is an accelerator preset, e.g. "h100-sxm"; empty means ideal
	// links from Link instead of presets.
	GPU string `yaml:"gpu" json:"gpu"`
	// Nodes is the number of servers, 1..MaxNodes (0 means 1).
	Nodes int `yaml:"nodes" json:"nodes"`
	// GPUsPerNode is the number of GPUs per server, 1..MaxPerNode; 0 means
	// all of Scenario.GPUs in one node.
	GPUsPerNode int `yaml:"gpus_per_node" json:"gpus_per_node"`
	// Intra is the link preset inside a server; empty means the GPU's own.
	Intra string `yaml:"intra" json:"intra"`
	// Inter is the NIC preset between servers; empty means "ib-ndr".
	Inter string `yaml:"inter" json:"inter"`
	// Network is "rail-optimized" (default), "fat-tree", or "ideal": free
	// communication, to see a pipeline schedule or the compute alone.
	Network string `yaml:"network" json:"network"`
	// NodeGPUs, when set, gives each node its own GPU preset (one entry
	// per node): a heterogeneous cluster. Compute speed and HBM follow
	// each node's preset; the links inside nodes follow GPU's.
	NodeGPUs []string `yaml:"node_gpus" json:"node_gpus"`
}

// Collective is one collective operation.
type Collective struct {
	// Op is the operation as nccl-tests names it: all_reduce (the only one
	// data parallelism takes), reduce_scatter, all_gather, broadcast,
	// reduce, all_to_all, sendrecv, barrier.
	Op string `yaml:"op" json:"op"`
	// Algorithm is how it is done: ring, tree, halving_doubling,
	// recursive_doubling, hierarchical, binomial, chain, pairwise, ... or
	// auto (see collective.Algorithms).
	Algorithm string `yaml:"algorithm" json:"algorithm"`
	// Size is S, the buffer each GPU holds, 1B..MaxBuffer.
	Size units.Bytes `yaml:"size" json:"size"`
	// Chunks pipelines each message in this many pieces, 1..MaxChunks.
	Chunks int `yaml:"chunks" json:"chunks"`
}

// NumGPUs is the number of GPUs the scenario runs on.
func (s *Scenario) NumGPUs() int {
	if s.Cluster.GPUsPerNode > 0 {
		return max(1, s.Cluster.Nodes) * s.Cluster.GPUsPerNode
	}
	return s.GPUs
}

// Default returns the scenario of the first lesson: data parallelism on four
// GPUs of one node, with a 256 MiB gradient buffer on 100 GB/s links.
func Default() Scenario {
	return Scenario{
		Strategy:   StrategyDataParallel,
		Fidelity:   "auto",
		GPUs:       4,
		Link:       Link{Bandwidth: 100 * units.GBps, Latency: 5 * units.Microsecond},
		Compute:    Compute{Forward: 2 * units.Millisecond, Backward: 4 * units.Millisecond},
		Collective: Collective{Op: "all_reduce", Algorithm: AlgorithmRing, Size: 256 * units.MiB, Chunks: 1},
		Parallel: Parallel{DP: 1, TP: 1, PP: 1, CP: 1, EP: 1, Schedule: "1f1b", VirtualStages: 1,
			Microbatches: 8, MicroBatchSize: 1, Recompute: "none", Partition: "equal"},
		Training:    Training{Precision: "bf16", Optimizer: "adam"},
		Seed:        1,
		Iterations:  1,
		Data:        Data{SeqDist: "fixed"},
		Recovery:    DefaultRecovery(),
		Failures:    DefaultFailures(),
		Sync:        defaultSync(),
		Split:       defaultSplit(),
		Compression: Compression{Ratio: 1, Activations: 1},
		RLHF:        defaultRLHF(),
		Inference:   defaultInference(),
	}
}

// FieldError names the offending field (in the YAML spelling, dotted) and
// what it allows.
type FieldError struct {
	// Field is the dotted path of the field, e.g. "link.bandwidth".
	Field string
	// Msg says what is wrong and what is allowed.
	Msg string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Validate checks every field and returns all the problems at once, each a
// *FieldError naming the field and its allowed range.
func (s *Scenario) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if len(s.Name) > 200 {
		bad("name", "is %d characters long; at most 200 allowed", len(s.Name))
	}
	if !contains(Strategies, s.Strategy) {
		bad("strategy", "%q is not known; allowed: %s", s.Strategy, strings.Join(Strategies, ", "))
	}
	if s.Fidelity != "auto" && s.Fidelity != "detailed" && s.Fidelity != "analytic" {
		bad("fidelity", "%q is not known; allowed: auto, detailed, analytic", s.Fidelity)
	}
	if s.Strategy == StrategyTraining {
		s.validateTraining(bad)
	}
	if s.Strategy == StrategySplitLearning {
		s.validateSplit(bad)
	}
	if s.Strategy == StrategyRLHF {
		s.validateRLHF(bad)
	}
	if s.Strategy == StrategyInference {
		s.validateInference(bad)
	}
	if multiIteration(s.Strategy) {
		s.validateSync(bad)
	} else {
		s.validateCompression(bad)
	}
	if s.GPUs < MinGPUs || s.GPUs > MaxGPUs {
		bad("gpus", "is %d; allowed %d..%d", s.GPUs, MinGPUs, MaxGPUs)
	}
	s.validateCluster(bad)
	if s.Link.Bandwidth < MinBandwidth || s.Link.Bandwidth > MaxBandwidth {
		bad("link.bandwidth", "is %v; allowed %v..%v", s.Link.Bandwidth, MinBandwidth, MaxBandwidth)
	}
	if s.Link.Latency < 0 || s.Link.Latency > MaxLatency {
		bad("link.latency", "is %v; allowed 0ns..%v", s.Link.Latency, MaxLatency)
	}
	for _, c := range []struct {
		field string
		v     units.Time
	}{{"compute.forward", s.Compute.Forward}, {"compute.backward", s.Compute.Backward}} {
		if c.v < 1 || c.v > MaxCompute {
			bad(c.field, "is %v; allowed 1ns..%v", c.v, MaxCompute)
		}
	}
	if !(s.Compute.Jitter >= 0 && s.Compute.Jitter <= 0.9) { // also rejects NaN
		bad("compute.jitter", "is %v; allowed 0..0.9", s.Compute.Jitter)
	}
	s.validateCollective(bad)
	s.validateHetero(bad)
	s.validateFaults(bad)
	s.validateRecovery(bad)
	s.validateFailures(bad)
	s.validateAnimatedRecovery(bad)
	return errors.Join(errs...)
}

// Title is Name, or when that is empty a title made from the settings,
// e.g. "Data parallelism on 8 GPUs".
func (s *Scenario) Title() string {
	if s.Name != "" {
		return s.Name
	}
	if s.Strategy == StrategyTraining {
		p := s.Parallel
		plan := fmt.Sprintf("dp %d, tp %d, pp %d", p.DP, p.TP, p.PP)
		if p.CP > 1 {
			plan += fmt.Sprintf(", cp %d", p.CP)
		}
		if p.EP > 1 {
			plan += fmt.Sprintf(", ep %d", p.EP)
		}
		return fmt.Sprintf("%s on %d GPUs (%s)", s.Model.label(), s.NumGPUs(), plan)
	}
	if s.Strategy == StrategyCollective {
		return fmt.Sprintf("%s %s on %d GPUs", strings.ReplaceAll(s.Collective.Algorithm, "_", "-"), strings.ReplaceAll(s.Collective.Op, "_", "-"), s.NumGPUs())
	}
	switch s.Strategy {
	case StrategyInference:
		return s.titleInference()
	case StrategyParameterServer:
		return fmt.Sprintf("Parameter server (%s) with %d workers", strings.ToUpper(s.Sync.Mode), s.NumGPUs())
	case StrategyLocalSGD:
		return fmt.Sprintf("Local SGD (H = %d) on %d GPUs", s.Sync.Period, s.NumGPUs())
	case StrategySplitLearning:
		return s.splitTitle()
	case StrategyRLHF:
		return s.titleRLHF()
	}
	return fmt.Sprintf("Data parallelism on %d GPUs", s.NumGPUs())
}

// Describe is a one-line summary for people.
func (s *Scenario) Describe() string {
	var b strings.Builder
	if s.Strategy == StrategyTraining {
		p := s.Parallel
		fmt.Fprintf(&b, "%s on %d GPUs: dp %d × tp %d × pp %d", s.Model.label(), s.NumGPUs(), p.DP, p.TP, p.PP)
		if p.CP > 1 {
			fmt.Fprintf(&b, " × cp %d", p.CP)
		}
		fmt.Fprintf(&b, ", %s with %d microbatches", p.Schedule, p.Microbatches)
		if p.ZeRO > 0 {
			fmt.Fprintf(&b, ", ZeRO-%d", p.ZeRO)
		}
		if s.Cluster.GPU != "" {
			fmt.Fprintf(&b, ", %s", s.Cluster.GPU)
		}
		return b.String()
	}
	if multiIteration(s.Strategy) {
		return s.describeSync()
	}
	if s.Strategy == StrategySplitLearning {
		return s.describeSplit()
	}
	if s.Strategy == StrategyRLHF {
		return s.describeRLHF()
	}
	if s.Strategy == StrategyInference {
		return s.describeInference()
	}
	op := strings.ReplaceAll(s.Collective.Op, "_", "-")
	fmt.Fprintf(&b, "%d GPUs, %s %s of %v", s.NumGPUs(), s.Collective.Algorithm, op, s.Collective.Size)
	if s.Cluster.GPU != "" {
		if n := max(1, s.Cluster.Nodes); n > 1 {
			fmt.Fprintf(&b, " on %d nodes of %d %s", n, s.NumGPUs()/n, s.Cluster.GPU)
		} else {
			fmt.Fprintf(&b, " on %s", s.Cluster.GPU)
		}
	} else {
		fmt.Fprintf(&b, " over %v links (α=%v)", s.Link.Bandwidth, s.Link.Latency)
	}
	return b.String()
}
