// Package rlhf simulates reinforcement learning from feedback for language
// models (RLHF, PPO-style): four models — the actor (the policy being
// trained), the critic (its value model), the reward model and the frozen
// reference — and three phases per step: the actor generates rollouts, the
// reference, reward and critic score them (forward passes only), and the
// actor and critic train on them.
//
// Three placements of the four models are simulated, after Xiao et al.
// 2023 ("An Adaptive Placement and Parallelism Framework for Accelerating
// RLHF Training", arXiv 2312.11819):
//
//	co-located     every model on every GPU, the phases one after another,
//	               the actor resharded from its training layout to its
//	               generation layout before each generation
//	interleaved    the actor and reference on one group of GPUs, the critic
//	               and reward on the other; independent models run at once
//	disaggregated  a generation pool feeds a training pool through a rollout
//	               queue; the trainer sends the actor's weights back every k
//	               steps, and the generator may run at most η policy
//	               versions ahead (fully asynchronous RL with a staleness
//	               bound, as in AReaL-Hex, Yan et al. 2025, arXiv 2511.00796)
//
// The pools may be different GPUs (a bandwidth-rich one for generation, a
// compute-rich one for training) with a price per GPU-hour each, so a run
// reports its cost.
//
// Costs are analytic (cost.go): decode is bound by reading the weights and
// the KV cache from HBM, prefill, scoring and training by FLOPs. The run is
// played step by step without the event engine and package taskgraph: each
// phase is one span per GPU, labelled by model, in a timeline.Timeline whose
// RLHF record holds the pools, the queue's depth over time and each batch's
// policy version.
//
// Why no events: every phase occupies whole pools of GPUs at once, and the
// only things that wait for each other are phases and the rollout queue
// between the two pools, so each step's start and end follow from the
// previous step's by a max and a sum (async.go). No two phases share a
// link or a stream that their order would have to settle, which is what
// the task graph's events are for; the weight sync is a span on the
// training pool priced by its closed form (cost.go).
package rlhf
