package scenario

import (
	"errors"
	"fmt"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// Limits on the scenario. They keep a run small enough to animate and keep
// fuzzed or hostile input from asking for absurd work.
const (
	// MinGPUs is the fewest GPUs of a strategy whose Keys name no
	// MinGPUs: a lone collective needs two. Training, data parallelism
	// and serving run on one.
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

// AlgorithmRing is the default algorithm.
const AlgorithmRing = "ring"

// Limits on a cluster in a scenario. The browser animates up to a few
// hundred GPUs; the command line simulates up to MaxGPUs, with analytic
// collectives above run.AutoDetailedRanks.
const (
	MaxNodes   = 8192
	MaxPerNode = 72 // a GB200 NVL72 rack's NVLink domain
	MaxChunks  = 64
)

// Scenario is one run: a cluster, a workload and how it is parallelised.
type Scenario struct {
	// Name is a title for people; optional: Title makes one from the
	// settings when it is empty.
	Name string `yaml:"name" json:"name"`
	// Strategy names the registered strategy that runs the scenario
	// (Strategies lists them); DefaultStrategy when none is given.
	Strategy string `yaml:"strategy" json:"strategy"`
	// GPUs is the number of GPUs, from the strategy's fewest (Keys.MinGPUs,
	// else MinGPUs) to MaxGPUs, when the cluster has no gpus_per_node:
	// then they sit in one node.
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
	// Compression shrinks the gradient and model traffic of a
	// "parameter-server" or "local-sgd" scenario.
	Compression Compression `yaml:"compression" json:"compression"`
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
	// Calibration, when not nil, replaces catalog figures with measured
	// ones (fitted links, GEMM efficiency scales: hw.Calibration). It is
	// no key of the file or the URL: the command line reads it from the
	// file paraplay calibrate wrote (--calibration) and sets it.
	Calibration *hw.Calibration `yaml:"-" json:"-"`
	// sections holds the registered strategies' own sections that were
	// set (Get and Put); a section that was not is its default.
	sections map[string]any
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
	// Oversubscription is a fat tree's ratio of each leaf's downlinks to
	// its uplink to the spine, 1..64 (0 means 1, full bisection).
	Oversubscription float64 `yaml:"oversubscription" json:"oversubscription,omitempty"`
	// NodeGPUs, when set, gives each node its own GPU preset (one entry
	// per node): a heterogeneous cluster. Compute speed and HBM follow
	// each node's preset; the links inside nodes follow GPU's.
	NodeGPUs []string `yaml:"node_gpus" json:"node_gpus"`
	// Topology is a TPU slice's shape, e.g. "4x4x8" (cluster.gpu a TPU
	// preset): its chips replace nodes × gpus_per_node.
	Topology string `yaml:"topology" json:"topology,omitempty"`
	// Slices is how many such slices the data-centre network joins
	// (0 or 1: one slice).
	Slices int `yaml:"slices" json:"slices,omitempty"`
	// Twisted wires the slice as a twisted torus (k×k×2k or k×2k×2k).
	Twisted bool `yaml:"twisted" json:"twisted,omitempty"`
	// Wraparound is "auto" (or empty: the links the hardware gives the
	// shape) or "none" (drop them, to see what they buy).
	Wraparound string `yaml:"wraparound" json:"wraparound,omitempty"`
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
	// Channels is the number of parallel rings a ring collective runs on
	// (NCCL's nChannels), 0..collective.MaxChannels; 0 means NCCL's
	// default, one per NIC of a node across nodes and one inside a node
	// (collective.DefaultChannels).
	Channels int `yaml:"channels,omitempty" json:"channels,omitempty"`
	// Protocol is NCCL's protocol for the run's collectives: simple, ll,
	// ll128, or auto (the tuner picks the one with the least predicted
	// time, as NCCL_PROTO unset does); empty prices the catalog's links as
	// they are (collective.Protocol).
	Protocol string `yaml:"protocol,omitempty" json:"protocol,omitempty"`
	// Axes is, on a TPU slice, the torus axes the collective spans, e.g.
	// "x" or "xyz"; empty: every axis longer than one chip. The chips
	// that differ along the other axes run the same collective at once.
	Axes string `yaml:"axes,omitempty" json:"axes,omitempty"`
}

// ProtocolAuto is collective.protocol's value that lets the tuner pick.
const ProtocolAuto = "auto"

// NumGPUs is the number of GPUs the scenario runs on.
func (s *Scenario) NumGPUs() int {
	if s.Cluster.Topology != "" {
		return s.Cluster.chips()
	}
	if s.Cluster.GPUsPerNode > 0 {
		return max(1, s.Cluster.Nodes) * s.Cluster.GPUsPerNode
	}
	return s.GPUs
}

// Default returns the scenario of the first lesson: data parallelism on four
// GPUs of one node, with a 256 MiB gradient buffer on 100 GB/s links.
func Default() Scenario {
	return Scenario{
		Strategy:   DefaultStrategy,
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
		Data:        Data{SeqDist: "fixed", Assign: "random"},
		Recovery:    DefaultRecovery(),
		Failures:    DefaultFailures(),
		Sync:        defaultSync(),
		Compression: Compression{Ratio: 1, Activations: 1, Parameters: 1, Method: CompressScaled},
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

// Fieldf is a *FieldError for field whose message is format of args.
// It is not inlined: validators call it
// from dozens of places, and the expanded call at each costs the
// browser's download a few hundred bytes.
//
//go:noinline
func Fieldf(field, format string, args []any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks every field and returns all the problems at once, each a
// *FieldError naming the field and its allowed range: the keys every
// strategy shares here, the strategy's own through its Kind's Check.
func (s *Scenario) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, Fieldf(field, format, args))
	}
	if len(s.Name) > 200 {
		bad("name", "is %d characters long; at most 200 allowed", len(s.Name))
	}
	kind, keys, known := KindOf(s.Strategy)
	if !known {
		bad("strategy", "%q is not known; allowed: %s", s.Strategy, knownStrategies())
	}
	if s.Fidelity != "auto" && s.Fidelity != "detailed" && s.Fidelity != "analytic" {
		bad("fidelity", "%q is not known; allowed: auto, detailed, analytic", s.Fidelity)
	} else if known {
		// The other strategies have one way to run: the key would be ignored.
		s.exclusive("fidelity", s.Fidelity != "auto", "is chosen only in %s runs; a %s run has one way to run (drop the key or set it to auto)", bad)
	}
	if known {
		kind.Check(s, bad)
	}
	s.validateCompression(bad)
	if lo, _ := keys.GPURange(); s.GPUs < lo || s.GPUs > MaxGPUs {
		bad("gpus", "is %d; allowed %d..%d for strategy %s", s.GPUs, lo, MaxGPUs, s.Strategy)
	}
	s.validateCluster(keys, bad)
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
	s.validateCollective(keys, bad)
	s.validateHetero(bad)
	s.validateFaults(bad)
	s.validateRecovery(bad)
	s.validateFailures(bad)
	s.validateTokens(bad)
	s.validateSections(bad)
	s.validateAnimatedRecovery(bad)
	return errors.Join(errs...)
}

// knownStrategies lists the registered strategies for a message.
func knownStrategies() string {
	if names := Strategies(); len(names) > 0 {
		return strings.Join(names, ", ")
	}
	return "none is registered (import paraplay/sim/run, which registers the built-in strategies)"
}

// exclusive reports key, set in s, when s's strategy does not use it (see
// Keys.Uses): format has two %s, the strategies that use it and s's.
func (s *Scenario) exclusive(key string, set bool, format string, bad Reporter) {
	if set && !s.Uses(key) {
		bad(key, format, users(key), s.Strategy)
	}
}

// Title is Name, or when that is empty a title made from the settings by
// the strategy, e.g. "Data parallelism on 8 GPUs".
func (s *Scenario) Title() string {
	if s.Name != "" {
		return s.Name
	}
	return s.kindOrDefault().Title(s)
}

// Describe is a one-line summary for people, made by the strategy.
func (s *Scenario) Describe() string { return s.kindOrDefault().Describe(s) }

// kindOrDefault is the scenario's kind, or the default strategy's for a
// scenario whose strategy is not known (it is invalid, but a page may
// still name it).
func (s *Scenario) kindOrDefault() Kind {
	if k, _, ok := KindOf(s.Strategy); ok {
		return k
	}
	if k, _, ok := KindOf(DefaultStrategy); ok {
		return k
	}
	return unknownKind{}
}

// GPUCount is "1 GPU" or "n GPUs", for titles.
func GPUCount(n int) string {
	if n == 1 {
		return "1 GPU"
	}
	return fmt.Sprintf("%d GPUs", n)
}

// unknownKind names scenarios when no strategy is registered at all.
type unknownKind struct{}

func (unknownKind) Name() string              { return "" }
func (unknownKind) Keys() Keys                { return Keys{} }
func (unknownKind) Check(*Scenario, Reporter) {}
func (unknownKind) Title(s *Scenario) string {
	return fmt.Sprintf("%s on %s", s.Strategy, GPUCount(s.NumGPUs()))
}
func (unknownKind) Describe(s *Scenario) string { return s.DescribeCollective() }

// DescribeCollective is the one-line summary of the collective section on
// the scenario's links: what a lone collective and data parallelism run.
func (s *Scenario) DescribeCollective() string {
	var b strings.Builder
	op := collective.Label(s.Collective.Op)
	fmt.Fprintf(&b, "%s, %s %s of %v", GPUCount(s.NumGPUs()), s.Collective.Algorithm, op, s.Collective.Size)
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
