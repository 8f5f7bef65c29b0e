package rlhf

import (
	"errors"
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// The placements of the four models.
const (
	// CoLocated puts every model on every GPU ("flattening" in Xiao et al.).
	CoLocated = "co-located"
	// Interleaved puts independent models on separate groups of GPUs.
	Interleaved = "interleaved"
	// Disaggregated separates a generation pool from a training pool
	// ("separation" in Xiao et al.).
	Disaggregated = "disaggregated"
)

// Placements lists the placements, for messages and forms.
var Placements = []string{CoLocated, Interleaved, Disaggregated}

// Unbounded is the value of Config.Staleness that bounds nothing.
const Unbounded = -1

// Limits on a run, to keep hostile input from asking for absurd work.
const (
	MaxSteps  = 64
	MaxTokens = 1 << 17 // prompt or response length
	MaxPrompt = 1 << 16 // prompts per step
	MaxGPUs   = 1024
	MaxQueue  = 1 << 10
	MaxSync   = 64
)

// Config is one RL run.
type Config struct {
	// Placement is CoLocated, Interleaved or Disaggregated.
	Placement string
	// Actor is the policy being trained; Reference is a frozen copy of
	// its starting point (usually the same architecture).
	Actor, Reference workload.Model
	// Reward scores a finished rollout.
	Reward workload.Model
	// Critic estimates values for PPO's advantages; a zero Model (empty
	// Name) means none, as in critic-free methods such as GRPO.
	Critic workload.Model
	// Prompts is the batch: rollouts generated and trained on per step,
	// 1..MaxPrompt.
	Prompts int
	// PromptLen and ResponseLen are the tokens of a prompt and of the
	// generated response, 1..MaxTokens each.
	PromptLen, ResponseLen int
	// GPUs is the number of GPUs of the run, 2..MaxGPUs.
	GPUs int
	// GenGPUs is the size of the first pool, 1..GPUs−1: the generation
	// pool (disaggregated) or the actor-and-reference group (interleaved);
	// ignored when co-located.
	GenGPUs int
	// GenTP is the tensor-parallel degree of generation, 1..the GPUs that
	// generate; it must divide them.
	GenTP int
	// GenGPU is the GPU of the first pool; TrainGPU the GPU of the rest,
	// and of every GPU when co-located.
	GenGPU, TrainGPU hw.GPU
	// GenPrice and TrainPrice are what one GPU of each pool costs per
	// hour, in dollars, ≥ 0.
	GenPrice, TrainPrice float64
	// Queue is the rollout queue's capacity in batches, 0..MaxQueue, 0
	// meaning unbounded (disaggregated only).
	Queue int
	// Staleness is η, 0..MaxSteps or Unbounded: batch k may only be
	// generated with a policy version v ≥ k − η (disaggregated only).
	Staleness int
	// SyncEvery is k, 1..MaxSync: the weights go back to the generator
	// after every k training steps (disaggregated only). A bounded
	// Staleness must be at least k − 1, or the generator waits for a
	// version that is never sent.
	SyncEvery int
	// SyncBandwidth is each GPU's network port between the pools, one
	// direction; SyncLatency its per-message α.
	SyncBandwidth units.Bandwidth
	SyncLatency   units.Time
	// Steps is the number of RL steps, 1..MaxSteps.
	Steps int
}

// HasCritic reports whether the run has a critic.
func (c *Config) HasCritic() bool { return c.Critic.Name != "" }

// ConfigError names the offending field of a Config and what it allows.
// configf is a *ConfigError for field whose message is format of args.
// It is not inlined: validators call it
// from dozens of places, and the expanded call at each costs the
// browser's download a few hundred bytes.
//
//go:noinline
func configf(field, format string, args []any) *ConfigError {
	return &ConfigError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

type ConfigError struct {
	// Field is the Config field's name, e.g. "GenTP".
	Field string
	// Msg says what is wrong and what is allowed.
	Msg string
}

func (e *ConfigError) Error() string { return "rlhf: " + e.Field + ": " + e.Msg }

// Validate reports every problem with c at once, each a *ConfigError.
func (c *Config) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, configf(field, format, args))
	}
	known := false
	for _, p := range Placements {
		known = known || p == c.Placement
	}
	if !known {
		bad("Placement", "%q is not known; allowed: co-located, interleaved, disaggregated", c.Placement)
	}
	for _, m := range []struct {
		field string
		m     workload.Model
		need  bool
	}{{"Actor", c.Actor, true}, {"Reference", c.Reference, true}, {"Reward", c.Reward, true}, {"Critic", c.Critic, c.HasCritic()}} {
		if !m.need {
			continue
		}
		if err := m.m.Validate(); err != nil {
			bad(m.field, "%v", err)
		}
	}
	checkRange := func(field string, v, lo, hi int) {
		if v < lo || v > hi {
			bad(field, "is %d; allowed %d..%d", v, lo, hi)
		}
	}
	checkRange("Prompts", c.Prompts, 1, MaxPrompt)
	checkRange("PromptLen", c.PromptLen, 1, MaxTokens)
	checkRange("ResponseLen", c.ResponseLen, 1, MaxTokens)
	checkRange("GPUs", c.GPUs, 2, MaxGPUs)
	checkRange("Steps", c.Steps, 1, MaxSteps)
	c.validatePools(bad)
	c.validateQueue(bad)
	return errors.Join(errs...)
}

// validatePools checks the split of the GPUs, the generation TP degree,
// the GPU types and prices.
func (c *Config) validatePools(bad func(field, format string, args ...any)) {
	gen := c.GPUs
	if c.Placement != CoLocated {
		gen = c.GenGPUs
		if c.GenGPUs < 1 || c.GenGPUs > c.GPUs-1 {
			bad("GenGPUs", "is %d; allowed 1..%d (GPUs − 1, so the other pool keeps one)", c.GenGPUs, c.GPUs-1)
			gen = 0
		}
	}
	if c.GenTP < 1 || (gen > 0 && (c.GenTP > gen || gen%c.GenTP != 0)) {
		bad("GenTP", "is %d; allowed a divisor of the %d GPUs that generate", c.GenTP, gen)
	}
	if c.TrainGPU.Validate() != nil || c.TrainGPU.HBMBandwidth <= 0 {
		bad("TrainGPU", "%q is not a usable GPU", c.TrainGPU.Name)
	}
	if c.Placement != CoLocated && (c.GenGPU.Validate() != nil || c.GenGPU.HBMBandwidth <= 0) {
		bad("GenGPU", "%q is not a usable GPU", c.GenGPU.Name)
	}
	if !(c.GenPrice >= 0 && c.GenPrice <= 1e4) {
		bad("GenPrice", "is %v; allowed 0..10000 dollars per GPU-hour", c.GenPrice)
	}
	if !(c.TrainPrice >= 0 && c.TrainPrice <= 1e4) {
		bad("TrainPrice", "is %v; allowed 0..10000 dollars per GPU-hour", c.TrainPrice)
	}
}

// validateQueue checks the rollout queue, the staleness bound and the
// weight synchronisation.
func (c *Config) validateQueue(bad func(field, format string, args ...any)) {
	if c.Queue < 0 || c.Queue > MaxQueue {
		bad("Queue", "is %d; allowed 0..%d (0 = unbounded)", c.Queue, MaxQueue)
	}
	if c.SyncEvery < 1 || c.SyncEvery > MaxSync {
		bad("SyncEvery", "is %d; allowed 1..%d", c.SyncEvery, MaxSync)
	}
	switch {
	case c.Staleness != Unbounded && (c.Staleness < 0 || c.Staleness > MaxSteps):
		bad("Staleness", "is %d; allowed 0..%d, or %d for unbounded", c.Staleness, MaxSteps, Unbounded)
	case c.Placement == Disaggregated && c.Staleness != Unbounded && c.SyncEvery >= 1 && c.Staleness < c.SyncEvery-1:
		bad("Staleness", "is %d with weights sent every %d steps; allowed ≥ %d (SyncEvery − 1), or the generator waits for a version never sent",
			c.Staleness, c.SyncEvery, c.SyncEvery-1)
	}
	if c.Placement == Disaggregated && !(c.SyncBandwidth > 0) {
		bad("SyncBandwidth", "is %v; must be > 0", c.SyncBandwidth)
	}
	if c.SyncLatency < 0 || c.SyncLatency > units.Second {
		bad("SyncLatency", "is %v; allowed 0..1s", c.SyncLatency)
	}
}
