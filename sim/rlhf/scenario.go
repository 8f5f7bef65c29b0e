package rlhf

import (
	"errors"
	"fmt"
	"strings"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Name is the strategy key's value of reinforcement learning of a
// language model with four models (actor, critic, reward, reference)
// placed co-located, interleaved or disaggregated, for iterations RL steps.
const Name = "rlhf"

// NoCritic is the value of rlhf.critic for a critic-free run (GRPO-style).
const NoCritic = "none"

// section is the key of the scenario's rlhf section.
const section = "rlhf"

// Settings is the rlhf section of a scenario. The run has gpus GPUs and
// plays iterations steps; the cluster and link sections do not apply.
type Settings struct {
	// Placement is co-located, interleaved or disaggregated.
	Placement string
	// Actor is the policy's model preset, e.g. "llama3-8b".
	Actor string
	// Critic is the value model's preset, or "none" for no critic.
	Critic string
	// Reward is the reward model's preset.
	Reward string
	// Reference is the frozen reference policy's preset.
	Reference string
	// Prompts is the rollouts per step, 1..65536.
	Prompts int
	// PromptLen and ResponseLen are the tokens of a prompt and of a
	// generated response, 1..131072 each.
	PromptLen, ResponseLen int
	// GenGPUs is the first pool, 1..gpus−1: the generation pool
	// (disaggregated) or the actor-and-reference group (interleaved).
	GenGPUs int
	// GenTP is generation's tensor-parallel degree; it divides the GPUs
	// that generate.
	GenTP int
	// GenGPU is the first pool's GPU preset, e.g. "h20".
	GenGPU string
	// TrainGPU is the other pool's GPU preset (every GPU when co-located).
	TrainGPU string
	// GenPrice and TrainPrice are dollars per GPU-hour, 0..10000; 0 takes
	// the assumed rate of AssumedPrice.
	GenPrice, TrainPrice float64
	// Queue is the rollout queue's capacity in batches, 0..1024, 0 meaning
	// unbounded.
	Queue int
	// Staleness is η, the policy versions the generator may run ahead,
	// 0..64, or −1 for unbounded.
	Staleness int
	// SyncEvery is k, 1..64: the weights go back to the generator after
	// every k steps.
	SyncEvery int
	// SyncBandwidth is each GPU's port between the pools, one direction;
	// 0 means the ib-ndr preset's effective rate.
	SyncBandwidth units.Bandwidth
}

// DefaultSettings is the rlhf section of a default scenario: an 8B actor,
// critic, reward and reference, 64 prompts of 256 tokens answered with
// 512, co-located.
func DefaultSettings() Settings {
	return Settings{Placement: CoLocated, Actor: "llama3-8b", Critic: "llama3-8b", Reward: "llama3-8b", Reference: "llama3-8b",
		Prompts: 64, PromptLen: 256, ResponseLen: 512, GenGPUs: 2, GenTP: 1, GenGPU: "h20", TrainGPU: "h100-sxm",
		Queue: 0, Staleness: Unbounded, SyncEvery: 1}
}

// SettingsOf is s's rlhf section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

// SetSettings stores r as s's rlhf section.
func SetSettings(s *scenario.Scenario, r Settings) { scenario.Put(s, section, r) }

// fields are the rlhf section's rows of the field table, in order.
var rows = []scenario.Row{
	{Key: "placement", Param: "placement", Help: "co-located, interleaved or disaggregated", Field: "Placement"},
	{Key: "actor", Param: "actor", Help: "a model preset, e.g. llama3-8b", Field: "Actor", Trim: true},
	{Key: "critic", Param: "critic", Help: "a model preset, or none", Field: "Critic", Trim: true},
	{Key: "reward", Param: "reward", Help: "a model preset", Field: "Reward", Trim: true},
	{Key: "reference", Param: "reference", Help: "a model preset", Field: "Reference", Trim: true},
	{Key: "prompts", Param: "prompts", Field: "Prompts"},
	{Key: "prompt_len", Param: "prompt_len", Field: "PromptLen"},
	{Key: "response_len", Param: "response_len", Field: "ResponseLen"},
	{Key: "gen_gpus", Param: "gen_gpus", Field: "GenGPUs"},
	{Key: "gen_tp", Param: "gen_tp", Field: "GenTP"},
	{Key: "gen_gpu", Param: "gen_gpu", Help: "a GPU preset, e.g. h20", Field: "GenGPU", Trim: true},
	{Key: "train_gpu", Param: "train_gpu", Help: "a GPU preset, e.g. h100-sxm", Field: "TrainGPU", Trim: true},
	{Key: "gen_price", Param: "gen_price", Help: "dollars per GPU-hour, 0 = assumed rate", Field: "GenPrice"},
	{Key: "train_price", Param: "train_price", Help: "dollars per GPU-hour, 0 = assumed rate", Field: "TrainPrice"},
	{Key: "queue", Param: "queue", Field: "Queue"},
	{Key: "staleness", Param: "eta", Field: "Staleness"},
	{Key: "sync_every", Param: "sync_every", Field: "SyncEvery"},
	{Key: "sync_bandwidth", Param: "sync_bw", Help: "e.g. 50GB/s, or 0 for ib-ndr", Field: "SyncBandwidth", ZeroDefault: true},
}

// Strategy is reinforcement learning as a strategy of the scenario: its
// rlhf section, its checks and its names.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the rlhf section.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}}}
}

// configKeys maps Config's fields to the scenario's keys, so that
// Config.Validate's problems name what the reader wrote.
var configKeys = map[string]string{
	"Placement": "rlhf.placement", "Actor": "rlhf.actor", "Critic": "rlhf.critic", "Reward": "rlhf.reward",
	"Reference": "rlhf.reference", "Prompts": "rlhf.prompts", "PromptLen": "rlhf.prompt_len",
	"ResponseLen": "rlhf.response_len", "GPUs": "gpus", "GenGPUs": "rlhf.gen_gpus", "GenTP": "rlhf.gen_tp",
	"GenGPU": "rlhf.gen_gpu", "TrainGPU": "rlhf.train_gpu", "GenPrice": "rlhf.gen_price",
	"TrainPrice": "rlhf.train_price", "Queue": "rlhf.queue", "Staleness": "rlhf.staleness",
	"SyncEvery": "rlhf.sync_every", "SyncBandwidth": "rlhf.sync_bandwidth", "SyncLatency": "rlhf.sync_bandwidth",
	"Steps": "iterations",
}

// FromScenario builds the run of an rlhf scenario: presets looked up,
// prices and the sync port defaulted. Its errors name the scenario's keys
// (*scenario.FieldError).
func FromScenario(s *scenario.Scenario) (Config, error) {
	r := SettingsOf(s)
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, scenario.Fieldf(field, format, args))
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
	c := Config{Placement: r.Placement, Actor: model("rlhf.actor", r.Actor), Reference: model("rlhf.reference", r.Reference),
		Reward: model("rlhf.reward", r.Reward), Prompts: r.Prompts, PromptLen: r.PromptLen, ResponseLen: r.ResponseLen,
		GPUs: s.GPUs, GenGPUs: r.GenGPUs, GenTP: r.GenTP, GenGPU: gpu("rlhf.gen_gpu", r.GenGPU), TrainGPU: gpu("rlhf.train_gpu", r.TrainGPU),
		GenPrice: r.GenPrice, TrainPrice: r.TrainPrice, Queue: r.Queue, Staleness: r.Staleness, SyncEvery: r.SyncEvery,
		SyncBandwidth: r.SyncBandwidth, Steps: s.Iterations}
	if r.Critic != NoCritic {
		c.Critic = model("rlhf.critic", r.Critic)
	}
	c.defaults(r)
	if len(errs) > 0 {
		return c, errors.Join(errs...)
	}
	if err := c.Validate(); err != nil {
		for _, e := range scenario.Problems(err) {
			var ce *ConfigError
			if errors.As(e, &ce) {
				bad(configKeys[ce.Field], "%s", ce.Msg)
			} else {
				errs = append(errs, e)
			}
		}
		return c, errors.Join(errs...)
	}
	return c, nil
}

// defaults fills in what the section leaves at 0: the assumed prices and
// the ib-ndr port between the pools.
func (c *Config) defaults(r Settings) {
	if c.GenPrice == 0 {
		c.GenPrice = AssumedPrice(r.GenGPU)
	}
	if c.TrainPrice == 0 {
		c.TrainPrice = AssumedPrice(r.TrainGPU)
	}
	if ib, err := hw.LookupLink("ib-ndr"); err == nil {
		if c.SyncBandwidth == 0 {
			c.SyncBandwidth = ib.Effective()
		}
		c.SyncLatency = ib.Latency
	}
}

// Check checks the rlhf section through FromScenario.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	if s.Cluster.GPU != "" {
		bad("cluster.gpu", "is %q; strategy rlhf takes its GPUs from rlhf.gen_gpu and rlhf.train_gpu, so leave the cluster section empty", s.Cluster.GPU)
	}
	if _, err := FromScenario(s); err != nil {
		for _, e := range scenario.Problems(err) {
			var fe *scenario.FieldError
			if errors.As(e, &fe) {
				bad(fe.Field, "%s", fe.Msg)
			} else {
				bad("rlhf", "%v", e)
			}
		}
	}
}

// Describe is e.g. "RLHF, co-located, 8 GPUs: actor llama3-8b on
// h100-sxm, 64 prompts of 256+512 tokens, 16 steps".
func (Strategy) Describe(s *scenario.Scenario) string {
	r := SettingsOf(s)
	var b strings.Builder
	fmt.Fprintf(&b, "RLHF, %s, %d GPUs: actor %s", r.Placement, s.GPUs, r.Actor)
	if r.Placement == CoLocated {
		fmt.Fprintf(&b, " on %s", r.TrainGPU)
	} else {
		fmt.Fprintf(&b, ", %d× %s + %d× %s", r.GenGPUs, r.GenGPU, s.GPUs-r.GenGPUs, r.TrainGPU)
	}
	fmt.Fprintf(&b, ", %d prompts of %d+%d tokens, %d steps", r.Prompts, r.PromptLen, r.ResponseLen, s.Iterations)
	if r.Placement == Disaggregated {
		q := "unbounded queue"
		if r.Queue > 0 {
			q = fmt.Sprintf("queue %d", r.Queue)
		}
		eta := "η = ∞"
		if r.Staleness != Unbounded {
			eta = fmt.Sprintf("η = %d", r.Staleness)
		}
		fmt.Fprintf(&b, ", %s, %s, weights every %d", q, eta, r.SyncEvery)
	}
	return b.String()
}

// Title is e.g. "RLHF, co-located, on 8 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("RLHF, %s, on %d GPUs", SettingsOf(s).Placement, s.GPUs)
}

// Edit changes s's rlhf section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }
