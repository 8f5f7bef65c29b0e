package scenario

import (
	"errors"
	"fmt"
	"strings"

	"paraplay/sim/hw"
	"paraplay/sim/rlhf"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// StrategyRLHF: reinforcement learning of a language model with four
// models (actor, critic, reward, reference) placed co-located, interleaved
// or disaggregated, for iterations RL steps (package rlhf).
const StrategyRLHF = "rlhf"

// NoCritic is the value of rlhf.critic for a critic-free run (GRPO-style).
const NoCritic = "none"

// RLHF configures the rlhf strategy. The run has gpus GPUs and plays
// iterations steps; the cluster and link sections do not apply.
type RLHF struct {
	// Placement is co-located, interleaved or disaggregated.
	Placement string `yaml:"placement" json:"placement"`
	// Actor is the policy's model preset, e.g. "llama3-8b".
	Actor string `yaml:"actor" json:"actor"`
	// Critic is the value model's preset, or "none" for no critic.
	Critic string `yaml:"critic" json:"critic"`
	// Reward is the reward model's preset.
	Reward string `yaml:"reward" json:"reward"`
	// Reference is the frozen reference policy's preset.
	Reference string `yaml:"reference" json:"reference"`
	// Prompts is the rollouts per step, 1..65536.
	Prompts int `yaml:"prompts" json:"prompts"`
	// PromptLen and ResponseLen are the tokens of a prompt and of a
	// generated response, 1..131072 each.
	PromptLen   int `yaml:"prompt_len" json:"prompt_len"`
	ResponseLen int `yaml:"response_len" json:"response_len"`
	// GenGPUs is the first pool, 1..gpus−1: the generation pool
	// (disaggregated) or the actor-and-reference group (interleaved).
	GenGPUs int `yaml:"gen_gpus" json:"gen_gpus"`
	// GenTP is generation's tensor-parallel degree; it divides the GPUs
	// that generate.
	GenTP int `yaml:"gen_tp" json:"gen_tp"`
	// GenGPU is the first pool's GPU preset, e.g. "h20".
	GenGPU string `yaml:"gen_gpu" json:"gen_gpu"`
	// TrainGPU is the other pool's GPU preset (every GPU when co-located).
	TrainGPU string `yaml:"train_gpu" json:"train_gpu"`
	// GenPrice and TrainPrice are dollars per GPU-hour, 0..10000; 0 takes
	// the assumed rate of rlhf.AssumedPrice.
	GenPrice   float64 `yaml:"gen_price" json:"gen_price"`
	TrainPrice float64 `yaml:"train_price" json:"train_price"`
	// Queue is the rollout queue's capacity in batches, 0..1024, 0 meaning
	// unbounded.
	Queue int `yaml:"queue" json:"queue"`
	// Staleness is η, the policy versions the generator may run ahead,
	// 0..64, or −1 for unbounded.
	Staleness int `yaml:"staleness" json:"staleness"`
	// SyncEvery is k, 1..64: the weights go back to the generator after
	// every k steps.
	SyncEvery int `yaml:"sync_every" json:"sync_every"`
	// SyncBandwidth is each GPU's port between the pools, one direction;
	// 0 means the ib-ndr preset's effective rate.
	SyncBandwidth units.Bandwidth `yaml:"sync_bandwidth" json:"sync_bandwidth"`
}

// defaultRLHF is the rlhf section of Default: an 8B actor, critic, reward
// and reference, 64 prompts of 256 tokens answered with 512, co-located.
func defaultRLHF() RLHF {
	return RLHF{Placement: rlhf.CoLocated, Actor: "llama3-8b", Critic: "llama3-8b", Reward: "llama3-8b", Reference: "llama3-8b",
		Prompts: 64, PromptLen: 256, ResponseLen: 512, GenGPUs: 2, GenTP: 1, GenGPU: "h20", TrainGPU: "h100-sxm",
		Queue: 0, Staleness: rlhf.Unbounded, SyncEvery: 1}
}

// rlhfFields maps rlhf.Config's fields to the scenario's keys.
var rlhfFields = map[string]string{
	"Placement": "rlhf.placement", "Actor": "rlhf.actor", "Critic": "rlhf.critic", "Reward": "rlhf.reward",
	"Reference": "rlhf.reference", "Prompts": "rlhf.prompts", "PromptLen": "rlhf.prompt_len",
	"ResponseLen": "rlhf.response_len", "GPUs": "gpus", "GenGPUs": "rlhf.gen_gpus", "GenTP": "rlhf.gen_tp",
	"GenGPU": "rlhf.gen_gpu", "TrainGPU": "rlhf.train_gpu", "GenPrice": "rlhf.gen_price",
	"TrainPrice": "rlhf.train_price", "Queue": "rlhf.queue", "Staleness": "rlhf.staleness",
	"SyncEvery": "rlhf.sync_every", "SyncBandwidth": "rlhf.sync_bandwidth", "SyncLatency": "rlhf.sync_bandwidth",
	"Steps": "iterations",
}

// RLHFConfig builds the rlhf package's configuration: presets looked up,
// prices and the sync port defaulted. Errors name the scenario's keys.
func (s *Scenario) RLHFConfig() (rlhf.Config, error) {
	r := s.RLHF
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	model := func(key, name string) workload.Model {
		m, err := workload.LookupModel(name)
		if err != nil {
			bad(key, "%v", err)
		}
		return m
	}
	gpu := func(key, name string) hw.GPU {
		g, err := hw.LookupGPU(name)
		if err != nil {
			bad(key, "%v", err)
		}
		return g
	}
	c := rlhf.Config{Placement: r.Placement, Actor: model("rlhf.actor", r.Actor), Reference: model("rlhf.reference", r.Reference),
		Reward: model("rlhf.reward", r.Reward), Prompts: r.Prompts, PromptLen: r.PromptLen, ResponseLen: r.ResponseLen,
		GPUs: s.GPUs, GenGPUs: r.GenGPUs, GenTP: r.GenTP, GenGPU: gpu("rlhf.gen_gpu", r.GenGPU), TrainGPU: gpu("rlhf.train_gpu", r.TrainGPU),
		GenPrice: r.GenPrice, TrainPrice: r.TrainPrice, Queue: r.Queue, Staleness: r.Staleness, SyncEvery: r.SyncEvery,
		SyncBandwidth: r.SyncBandwidth, Steps: s.Iterations}
	if r.Critic != NoCritic {
		c.Critic = model("rlhf.critic", r.Critic)
	}
	if c.GenPrice == 0 {
		c.GenPrice = rlhf.AssumedPrice(r.GenGPU)
	}
	if c.TrainPrice == 0 {
		c.TrainPrice = rlhf.AssumedPrice(r.TrainGPU)
	}
	if ib, err := hw.LookupLink("ib-ndr"); err == nil {
		if c.SyncBandwidth == 0 {
			c.SyncBandwidth = ib.Effective()
		}
		c.SyncLatency = ib.Latency
	}
	if len(errs) > 0 {
		return c, errors.Join(errs...)
	}
	if err := c.Validate(); err != nil {
		for _, e := range flatten(err) {
			var ce *rlhf.ConfigError
			if errors.As(e, &ce) {
				bad(rlhfFields[ce.Field], "%s", ce.Msg)
			} else {
				errs = append(errs, e)
			}
		}
		return c, errors.Join(errs...)
	}
	return c, nil
}

// validateRLHF checks the rlhf section through RLHFConfig.
func (s *Scenario) validateRLHF(bad func(field, format string, args ...any)) {
	if s.Cluster.GPU != "" {
		bad("cluster.gpu", "is %q; strategy rlhf takes its GPUs from rlhf.gen_gpu and rlhf.train_gpu, so leave the cluster section empty", s.Cluster.GPU)
	}
	if _, err := s.RLHFConfig(); err != nil {
		for _, e := range flatten(err) {
			var fe *FieldError
			if errors.As(e, &fe) {
				bad(fe.Field, "%s", fe.Msg)
			} else {
				bad("rlhf", "%v", e)
			}
		}
	}
}

// describeRLHF is Describe for the rlhf strategy.
func (s *Scenario) describeRLHF() string {
	r := s.RLHF
	var b strings.Builder
	fmt.Fprintf(&b, "RLHF, %s, %d GPUs: actor %s", r.Placement, s.GPUs, r.Actor)
	if r.Placement == rlhf.CoLocated {
		fmt.Fprintf(&b, " on %s", r.TrainGPU)
	} else {
		fmt.Fprintf(&b, ", %d× %s + %d× %s", r.GenGPUs, r.GenGPU, s.GPUs-r.GenGPUs, r.TrainGPU)
	}
	fmt.Fprintf(&b, ", %d prompts of %d+%d tokens, %d steps", r.Prompts, r.PromptLen, r.ResponseLen, s.Iterations)
	if r.Placement == rlhf.Disaggregated {
		q := "unbounded queue"
		if r.Queue > 0 {
			q = fmt.Sprintf("queue %d", r.Queue)
		}
		eta := "η = ∞"
		if r.Staleness != rlhf.Unbounded {
			eta = fmt.Sprintf("η = %d", r.Staleness)
		}
		fmt.Fprintf(&b, ", %s, %s, weights every %d", q, eta, r.SyncEvery)
	}
	return b.String()
}

// titleRLHF is Title for the rlhf strategy.
func (s *Scenario) titleRLHF() string {
	return fmt.Sprintf("RLHF, %s, on %d GPUs", s.RLHF.Placement, s.GPUs)
}
