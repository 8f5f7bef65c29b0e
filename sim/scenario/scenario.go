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
	MaxGPUs = 64
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

// Strategies the simulator knows. Only data parallelism so far.
const StrategyDataParallel = "data-parallel"

// Algorithms the all-reduce can use.
const AlgorithmRing = "ring"

// Scenario is one run: a cluster, a workload and how it is parallelised.
type Scenario struct {
	// Name is a title for people; optional: Title makes one from the
	// settings when it is empty.
	Name string `yaml:"name" json:"name"`
	// Strategy is the parallelisation; "data-parallel" (the default) is the
	// only one so far.
	Strategy string `yaml:"strategy" json:"strategy"`
	// GPUs is the number of GPUs in the node, MinGPUs..MaxGPUs.
	GPUs int `yaml:"gpus" json:"gpus"`
	// Link describes every GPU-to-GPU link of the ring.
	Link Link `yaml:"link" json:"link"`
	// Compute gives the synthetic durations of the compute spans.
	Compute Compute `yaml:"compute" json:"compute"`
	// AllReduce is the gradient synchronisation after the backward pass.
	AllReduce AllReduce `yaml:"allreduce" json:"allreduce"`
	// Seed drives the only randomness, the compute jitter; same seed, same run.
	Seed uint64 `yaml:"seed" json:"seed"`
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

// AllReduce is the collective that sums the gradients across GPUs.
type AllReduce struct {
	// Algorithm is "ring" (the only one so far).
	Algorithm string `yaml:"algorithm" json:"algorithm"`
	// Size is S, the gradient buffer each GPU holds, 1B..MaxBuffer.
	Size units.Bytes `yaml:"size" json:"size"`
}

// Default returns the scenario of the first lesson: data parallelism on four
// GPUs of one node, with a 256 MiB gradient buffer on 100 GB/s links.
func Default() Scenario {
	return Scenario{
		Strategy:  StrategyDataParallel,
		GPUs:      4,
		Link:      Link{Bandwidth: 100 * units.GBps, Latency: 5 * units.Microsecond},
		Compute:   Compute{Forward: 2 * units.Millisecond, Backward: 4 * units.Millisecond},
		AllReduce: AllReduce{Algorithm: AlgorithmRing, Size: 256 * units.MiB},
		Seed:      1,
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
	if s.Strategy != StrategyDataParallel {
		bad("strategy", "%q is not known; allowed: %s", s.Strategy, StrategyDataParallel)
	}
	if s.GPUs < MinGPUs || s.GPUs > MaxGPUs {
		bad("gpus", "is %d; allowed %d..%d", s.GPUs, MinGPUs, MaxGPUs)
	}
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
	if s.AllReduce.Algorithm != AlgorithmRing {
		bad("allreduce.algorithm", "%q is not known; allowed: %s", s.AllReduce.Algorithm, AlgorithmRing)
	}
	if s.AllReduce.Size < 1 || s.AllReduce.Size > MaxBuffer {
		bad("allreduce.size", "is %v; allowed 1B..%v", s.AllReduce.Size, MaxBuffer)
	}
	return errors.Join(errs...)
}

// Title is Name, or when that is empty a title made from the settings,
// e.g. "Data parallelism on 8 GPUs".
func (s *Scenario) Title() string {
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("Data parallelism on %d GPUs", s.GPUs)
}

// Describe is a one-line summary for people.
func (s *Scenario) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d GPUs, %s all-reduce of %v over %v links (α=%v)",
		s.GPUs, s.AllReduce.Algorithm, s.AllReduce.Size, s.Link.Bandwidth, s.Link.Latency)
	return b.String()
}
