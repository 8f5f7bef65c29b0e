package splitlearn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// The two ways of training across client devices.
const (
	// ModeSplit is split learning: clients run the first Cut layers, the
	// compute nodes the rest.
	ModeSplit = "split"
	// ModeFedAvg is federated averaging: clients train the whole model and
	// upload their weights every round.
	ModeFedAvg = "fedavg"
)

// Limits of a configuration.
const (
	MaxClients    = 512
	MaxHops       = 16
	MaxBatch      = 4096
	MaxRounds     = 64
	MaxLocalSteps = 64
	// MinSpeed and MaxSpeed bound a client's speed factor.
	MinSpeed, MaxSpeed = 0.01, 100.0
	// MinLinkRate is the slowest link allowed, 10 kB/s (80 kb/s).
	MinLinkRate units.Bandwidth = 1e4
	// MaxLinkRate is the fastest, 100 TB/s.
	MaxLinkRate units.Bandwidth = 1e14
	// MaxLatency caps a link's α at ten seconds.
	MaxLatency = 10 * units.Second
)

// Config is one split-learning or federated-averaging run.
type Config struct {
	// Title names the run for people.
	Title string
	// Mode is ModeSplit or ModeFedAvg.
	Mode string
	// Model is the network trained (see Models).
	Model Model
	// Devices gives each client's device, one per client, 1..MaxClients.
	Devices []hw.Device
	// Speeds scales each client's FLOP/s (one per client,
	// MinSpeed..MaxSpeed); nil means all 1.
	Speeds []float64
	// Cut is the number of layers on the clients (split learning),
	// 1..len(Model.Layers)−Hops.
	Cut int
	// Hops is the number of compute nodes in the chain, 1..MaxHops (1 is
	// one-hop split learning); federated averaging uses one, as the
	// aggregator.
	Hops int
	// Compute is the compute nodes' accelerator.
	Compute hw.GPU
	// Batch is the samples each client trains on per round (per local
	// step for fedavg), 1..MaxBatch.
	Batch int
	// Rounds is the number of rounds, 1..MaxRounds.
	Rounds int
	// LocalSteps is federated averaging's local steps per round,
	// 1..MaxLocalSteps.
	LocalSteps int
	// Uplink and Downlink are every client's access link rates,
	// MinLinkRate..MaxLinkRate; ClientLatency is its α each way,
	// 0..MaxLatency.
	Uplink, Downlink units.Bandwidth
	ClientLatency    units.Time
	// ServerBandwidth is compute node 0's port on the internet, and
	// HopBandwidth and HopLatency the links of the chain.
	ServerBandwidth, HopBandwidth units.Bandwidth
	HopLatency                    units.Time
}

// FieldError names the offending field of a Config by its scenario key
// (below "split.", or "iterations" for Rounds) and what it allows.
// fieldf is a *FieldError for field whose message is format of args.
// It is not inlined: validators call it
// from dozens of places, and the expanded call at each costs the
// browser's download a few hundred bytes.
//
//go:noinline
func fieldf(field, format string, args []any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

type FieldError struct {
	// Field is the key, e.g. "cut".
	Field string
	// Msg says what is wrong and what is allowed.
	Msg string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Validate returns every problem at once, each a *FieldError.
func (c *Config) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fieldf(field, format, args))
	}
	if c.Mode != ModeSplit && c.Mode != ModeFedAvg {
		bad("mode", "%q is not known; allowed: split, fedavg", c.Mode)
	}
	if len(c.Model.Layers) < 2 {
		bad("model", "has %d layers; a split model needs at least 2", len(c.Model.Layers))
	}
	n := len(c.Devices)
	if n < 1 || n > MaxClients {
		bad("clients", "is %d; allowed 1..%d", n, MaxClients)
	}
	if c.Speeds != nil && len(c.Speeds) != n {
		bad("speeds", "lists %d speeds for %d clients; give one per client or none", len(c.Speeds), n)
	}
	for i, v := range c.Speeds {
		if !(v >= MinSpeed && v <= MaxSpeed) {
			bad("speeds", "client %d's speed is %v; allowed %v..%v", i, v, MinSpeed, MaxSpeed)
			break
		}
	}
	if c.Hops < 1 || c.Hops > MaxHops {
		bad("hops", "is %d; allowed 1..%d", c.Hops, MaxHops)
	}
	if L := len(c.Model.Layers); c.Mode == ModeSplit && L >= 2 && (c.Cut < 1 || c.Cut > L-max(c.Hops, 1)) {
		bad("cut", "is %d; allowed 1..%d (the model's %d layers less one per compute node)", c.Cut, L-max(c.Hops, 1), L)
	}
	if c.Mode == ModeFedAvg && c.Hops != 1 {
		bad("hops", "is %d; federated averaging has one aggregator, so 1", c.Hops)
	}
	for _, f := range []struct {
		name   string
		v, max int
	}{{"batch", c.Batch, MaxBatch}, {"rounds", c.Rounds, MaxRounds}, {"local_steps", c.LocalSteps, MaxLocalSteps}} {
		if f.v < 1 || f.v > f.max {
			bad(f.name, "is %d; allowed 1..%d", f.v, f.max)
		}
	}
	for _, f := range []struct {
		name string
		v    units.Bandwidth
	}{{"uplink", c.Uplink}, {"downlink", c.Downlink}, {"server_bandwidth", c.ServerBandwidth}, {"hop_bandwidth", c.HopBandwidth}} {
		if !(f.v >= MinLinkRate && f.v <= MaxLinkRate) {
			bad(f.name, "is %v; allowed %v..%v", f.v, MinLinkRate, MaxLinkRate)
		}
	}
	for _, f := range []struct {
		name string
		v    units.Time
	}{{"client_latency", c.ClientLatency}, {"hop_latency", c.HopLatency}} {
		if f.v < 0 || f.v > MaxLatency {
			bad(f.name, "is %v; allowed 0s..%v", f.v, MaxLatency)
		}
	}
	for i, d := range c.Devices {
		if err := d.Validate(); err != nil {
			bad("device", "client %d: %v", i, err)
			break
		}
	}
	if err := c.Compute.Validate(); err != nil {
		bad("compute_gpu", "%v", err)
	}
	return errors.Join(errs...)
}

// DrawSpeeds draws n clients' speed factors from a lognormal distribution
// of mean 1 and coefficient of variation cv (σ² = ln(1 + cv²), μ = −σ²/2),
// from a PCG source seeded with seed, clamped to MinSpeed..MaxSpeed. The
// same seed gives the same speeds.
func DrawSpeeds(n int, cv float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, seed^0x5bd1e9955bd1e995))
	sigma := math.Sqrt(math.Log1p(cv * cv))
	mu := -sigma * sigma / 2
	out := make([]float64, n)
	for i := range out {
		out[i] = min(MaxSpeed, max(MinSpeed, math.Exp(mu+sigma*rng.NormFloat64())))
	}
	return out
}

// speed is client i's speed factor.
func (c *Config) speed(i int) float64 {
	if i < len(c.Speeds) {
		return c.Speeds[i]
	}
	return 1
}
