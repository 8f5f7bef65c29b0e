package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"paraplay/sim/units"
)

// The synchronisation modes of a parameter server.
const (
	// SyncBSP is bulk synchronous parallel: a barrier every iteration.
	SyncBSP = "bsp"
	// SyncASP is asynchronous parallel: no barrier at all.
	SyncASP = "asp"
	// SyncSSP is stale synchronous parallel (Ho et al. 2013): a worker may
	// run at most sync.staleness iterations ahead of the slowest.
	SyncSSP = "ssp"
	// SyncDSSP is dynamic SSP (Zhao et al. 2019): the bound moves between
	// sync.staleness and sync.staleness + sync.staleness_range, chosen
	// from the workers' recent iteration times.
	SyncDSSP = "dssp"
)

// SyncModes lists the modes sync.mode takes.
var SyncModes = []string{SyncBSP, SyncASP, SyncSSP, SyncDSSP}

// Limits on the multi-iteration strategies.
const (
	// MaxStaleness bounds sync.staleness and sync.staleness_range; a bound
	// this large never blocks a run of MaxIterations, so it acts as ∞.
	MaxStaleness = 1 << 30
	// MinSpeed and MaxSpeed bound a worker's speed factor.
	MinSpeed, MaxSpeed = 0.01, 100.0
	// MaxLayerGroups bounds sync.layers.
	MaxLayerGroups = 64
	// MaxCompressCost caps compression.time_per_mib at one second.
	MaxCompressCost = units.Second
)

// Sync configures the strategies parameter-server and local-sgd: how fast
// each worker is and when the replicas meet. They run Scenario.Iterations
// iterations per worker.
type Sync struct {
	// Mode is the parameter server's synchronisation: bsp, asp, ssp or dssp.
	Mode string `yaml:"mode" json:"mode"`
	// Staleness is s, 0..MaxStaleness: under ssp a worker starts
	// iteration k only once every worker has pushed k − s iterations (s =
	// 0 is bsp, a huge s is asp); under dssp it is the lower bound s_L.
	Staleness int `yaml:"staleness" json:"staleness"`
	// StalenessRange is dssp's r, 0..MaxStaleness: the controller may let
	// the fastest worker run up to r iterations beyond s_L (s_U = s_L + r).
	StalenessRange int `yaml:"staleness_range" json:"staleness_range"`
	// Servers is the number of parameter-server shards, 1..gpus: each holds
	// 1/servers of the model on a host of its own.
	Servers int `yaml:"servers" json:"servers"`
	// ServerBandwidth is each server host's port, one direction; 0 means
	// link.bandwidth.
	ServerBandwidth units.Bandwidth `yaml:"server_bandwidth" json:"server_bandwidth"`
	// Speeds gives each worker's speed factor, MinSpeed..MaxSpeed (compute
	// takes nominal / speed), one per GPU; empty means all 1. Written as a
	// comma-separated list, e.g. "1,1,0.5,0.25". compute.jitter and
	// straggler.cv spread each iteration's compute around it.
	Speeds []float64 `yaml:"speeds" json:"speeds"`
	// Period is local SGD's H, 1..iterations: the local steps between two
	// averagings of the whole model (1 is synchronous data parallelism).
	Period int `yaml:"period" json:"period"`
	// Layers is the number of layer groups the model is averaged in,
	// 1..MaxLayerGroups: 1 averages the whole model at the end of each
	// period; more averages group g in iteration H−1−(g mod H) of each
	// period, right after its backward, overlapped with the rest of the
	// backward and the next forward (DreamDDP's partial synchronisation).
	Layers int `yaml:"layers" json:"layers"`
}

// Compression shrinks traffic, each class by its own key: the gradients
// and models of the parameter-server and local-sgd strategies and a
// training run's data-parallel gradients (Ratio), a training run's
// activations (Activations, or Rank for a subspace) and its ZeRO
// parameter gathers (Parameters). Xu et al. (2024) compress the gradients
// hard and the activations and parameters mildly, which they find far
// less tolerant of it.
type Compression struct {
	// Ratio is the fraction of the bytes that is sent, 0 < r ≤ 1 (1 = off),
	// e.g. 0.01 for Deep Gradient Compression's top-0.1% sparsification
	// with indices, or PowerSGD's rank-r factors over the full matrix.
	Ratio float64 `yaml:"ratio" json:"ratio"`
	// TimePerMiB is the compute to compress and decompress one MiB of the
	// uncompressed buffer, 0..MaxCompressCost, charged on the sender's
	// compute stream before it sends.
	TimePerMiB units.Time `yaml:"time_per_mib" json:"time_per_mib"`
	// Activations is the fraction of a training run's activation traffic
	// that is sent, 0 < a ≤ 1 (1 = off): pipeline messages and the tp, cp
	// and ep exchanges, the class Xu et al. (2024) compress only mildly.
	// Each op that sends them pays TimePerMiB per MiB of the uncompressed
	// bytes.
	Activations float64 `yaml:"activations" json:"activations"`
	// Parameters is the fraction of a training run's ZeRO parameter
	// gathers that is sent, 0 < p ≤ 1 (1 = off): the all-gather after the
	// step (ZeRO-1/2) or before each pass (ZeRO-3), which Xu et al. (2024)
	// compress mildly with the activations. Each rank pays TimePerMiB per
	// MiB of the gathered parameters.
	Parameters float64 `yaml:"parameters" json:"parameters"`
	// Rank is k, the dimension of the subspace a training run's pipeline
	// messages are projected onto, 0..MaxRank (0 = off): Protocol Models
	// (Ramasinghe et al. 2025) send k coordinates per token instead of h
	// values, so a message shrinks to k/h, and the sender's projection
	// and the receiver's rebuilding each cost 2·tokens·h·k FLOPs.
	Rank int `yaml:"rank" json:"rank"`
	// Method is how a parameter server's messages shrink: "scaled" (every
	// message is Ratio of its bytes) or "slim-dp" (Sun et al. 2017: a
	// worker exchanges Ratio of the parameters, 4-byte values, and its
	// pushes carry a 4-byte index with each).
	Method string `yaml:"method" json:"method"`
}

// The compression methods of compression.method.
const (
	// CompressScaled shrinks every message to compression.ratio of its
	// bytes.
	CompressScaled = "scaled"
	// CompressSlimDP exchanges a subset of the parameters, each pushed
	// value with its index (Slim-DP).
	CompressSlimDP = "slim-dp"
)

// MaxRank bounds compression.rank: the widest hidden size a model may
// have.
const MaxRank = 1 << 17

// defaultSync is the sync section of Default.
func defaultSync() Sync {
	return Sync{Mode: SyncBSP, Staleness: 2, StalenessRange: 2, Servers: 1, Period: 1, Layers: 1}
}

// Speed is worker i's speed factor (1 when none is given).
func (s Sync) Speed(i int) float64 {
	if i < len(s.Speeds) {
		return s.Speeds[i]
	}
	return 1
}

// Enabled reports whether compression changes anything.
func (c Compression) Enabled() bool { return c.Ratio != 1 || c.TimePerMiB != 0 }

// CheckSync checks the sync section for the strategies that read it (a
// parameter server, local SGD): modes lists what sync.mode takes (nil:
// the strategy reads no mode), and period says whether it reads
// sync.period. Such runs are on ideal links, so the cluster section must
// be empty.
func (s *Scenario) CheckSync(bad Reporter, modes []string, period bool) {
	y := s.Sync
	n := s.NumGPUs()
	if s.Cluster.GPU != "" {
		bad("cluster.gpu", "is %q; strategy %s runs on ideal links (link.bandwidth, link.latency), so leave the cluster section empty", s.Cluster.GPU, s.Strategy)
	}
	if modes != nil && !contains(modes, y.Mode) {
		bad("sync.mode", "%q is not known; allowed: %s", y.Mode, strings.Join(SyncModes, ", "))
	}
	if y.Staleness < 0 || y.Staleness > MaxStaleness {
		bad("sync.staleness", "is %d; allowed 0..%d", y.Staleness, MaxStaleness)
	}
	if y.StalenessRange < 0 || y.StalenessRange > MaxStaleness {
		bad("sync.staleness_range", "is %d; allowed 0..%d", y.StalenessRange, MaxStaleness)
	}
	if y.Servers < 1 || y.Servers > max(n, 1) {
		bad("sync.servers", "is %d; allowed 1..%d (the number of workers)", y.Servers, n)
	}
	if b := y.ServerBandwidth; b != 0 && (b < MinBandwidth || b > MaxBandwidth) {
		bad("sync.server_bandwidth", "is %v; allowed %v..%v, or 0 for link.bandwidth", b, MinBandwidth, MaxBandwidth)
	}
	if len(y.Speeds) != 0 && len(y.Speeds) != n {
		bad("sync.speeds", "lists %d speeds for %d workers; give one per GPU or none", len(y.Speeds), n)
	}
	for i, v := range y.Speeds {
		if !(v >= MinSpeed && v <= MaxSpeed) {
			bad("sync.speeds", "worker %d's speed is %v; allowed %v..%v", i, v, MinSpeed, MaxSpeed)
			break
		}
	}
	if period && (y.Period < 1 || y.Period > max(s.Iterations, 1)) {
		bad("sync.period", "is %d; allowed 1..%d (iterations)", y.Period, s.Iterations)
	}
	if y.Layers < 1 || y.Layers > MaxLayerGroups {
		bad("sync.layers", "is %d; allowed 1..%d", y.Layers, MaxLayerGroups)
	}
}

// validateCompression checks the compression section, which applies to the
// data-parallel gradients of the training, parameter-server and local-sgd
// strategies.
func (s *Scenario) validateCompression(bad Reporter) {
	if c := s.Compression; !(c.Ratio > 0 && c.Ratio <= 1) {
		bad("compression.ratio", "is %v; allowed 0 < ratio ≤ 1 (1 = no compression)", c.Ratio)
	}
	if c := s.Compression; c.TimePerMiB < 0 || c.TimePerMiB > MaxCompressCost {
		bad("compression.time_per_mib", "is %v; allowed 0..%v", c.TimePerMiB, MaxCompressCost)
	}
	s.exclusive("compression.ratio", s.Compression.Enabled(), "applies to strategies %s; strategy is %s", bad)
	c := s.Compression
	if a := c.Activations; !(a > 0 && a <= 1) {
		bad("compression.activations", "is %v; allowed 0 < activations ≤ 1 (1 = no compression)", a)
	} else {
		s.exclusive("compression.activations", a != 1, "applies to %s runs (pipeline, tp, cp and ep traffic); strategy is %s", bad)
	}
	if p := c.Parameters; !(p > 0 && p <= 1) {
		bad("compression.parameters", "is %v; allowed 0 < parameters ≤ 1 (1 = no compression)", p)
	} else {
		s.exclusive("compression.parameters", p != 1, "applies to %s runs (ZeRO's parameter gathers); strategy is %s", bad)
	}
	switch {
	case c.Rank < 0 || c.Rank > MaxRank:
		bad("compression.rank", "is %d; allowed 0..%d (0 = off)", c.Rank, MaxRank)
	case c.Rank > 0 && c.Activations != 1:
		bad("compression.rank", "is %d and compression.activations %v: the rank sets the pipeline messages' size (k/h); leave compression.activations at 1", c.Rank, c.Activations)
	default:
		s.exclusive("compression.rank", c.Rank != 0, "applies to %s runs (pipeline messages); strategy is %s", bad)
	}
	if c.Method != CompressScaled && c.Method != CompressSlimDP {
		bad("compression.method", "%q is not known; allowed: %s, %s", c.Method, CompressScaled, CompressSlimDP)
	} else {
		s.exclusive("compression.method", c.Method != CompressScaled, "slim-dp applies to %s runs; strategy is %s", bad)
	}
}

// formatSpeeds writes speed factors as the field table stores them.
func formatSpeeds(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// parseSpeeds reads a comma-separated list of speed factors; an empty
// string is no list.
func parseSpeeds(v string) ([]float64, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > MaxGPUs {
		return nil, fmt.Errorf("lists %d speeds; at most %d allowed", len(parts), MaxGPUs)
	}
	out := make([]float64, len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("invalid speed %q: want numbers separated by commas, e.g. 1,1,0.5", p)
		}
		out[i] = f
	}
	return out, nil
}

// DescribeIterations ends the one-line summary of a run of iterations on
// workers: ", 8 iterations of a 256MiB model", with the workers' speeds
// and the compression when set.
func (s *Scenario) DescribeIterations() string {
	var b strings.Builder
	fmt.Fprintf(&b, ", %d iterations of a %v model", s.Iterations, s.Collective.Size)
	if len(s.Sync.Speeds) > 0 {
		fmt.Fprintf(&b, ", speeds %s", formatSpeeds(s.Sync.Speeds))
	}
	if s.Compression.Ratio != 1 {
		fmt.Fprintf(&b, ", compressed to %g", s.Compression.Ratio)
	}
	return b.String()
}
