package rlhf

import (
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// PoolMemory is one GPU's memory in a pool: what stays resident for the
// whole run and the peak, when generation's working set comes on top.
type PoolMemory struct {
	// Static is the resident model states and weights.
	Static units.Bytes
	// Peak is Static plus generation's working set (0 extra on a pool
	// that does not generate).
	Peak units.Bytes
}

// trainStates is one GPU's share of a trained model's states, sharded
// over n GPUs by ZeRO-3 with mixed-precision Adam: (2 + 2 + 12)·P/n
// (Rajbhandari et al. 2020, §5; workload.ModelStateBytes).
func trainStates(m workload.Model, n int) float64 {
	return workload.ModelStateBytes(params(m), 3, n).Total()
}

// frozenWeights is one GPU's share of a frozen model's bf16 weights,
// sharded over n GPUs: 2P/n.
func frozenWeights(m workload.Model, n int) float64 { return WeightBytes(m) / float64(n) }

// kvCacheBytes is one generating GPU's KV cache when every sequence of its
// replica holds its whole prompt and response: ⌈prompts / replicas⌉ ·
// (promptLen + responseLen) · κ / tp.
func (c *Config) kvCacheBytes(gpus int) float64 {
	replicas := gpus / c.GenTP
	seqs := (c.Prompts + replicas - 1) / replicas
	return float64(seqs) * float64(c.PromptLen+c.ResponseLen) * KVBytesPerToken(c.Actor) / float64(c.GenTP)
}

// Memory estimates one GPU's memory in each pool (first, then second),
// from the model states alone (activations are not counted):
//
//	trained models (actor, critic)    ZeRO-3 shards, 16P/n each
//	frozen models (reference, reward) bf16 shards, 2P/n each
//	generation, on the pool that does it, on top: the actor's bf16
//	  weights in generation layout and the full KV cache, where
//	  co-located and interleaved gather 2P·(1/tp − 1/n) beyond their
//	  training shard (the reshard) and the disaggregated generator keeps
//	  two copies of 2P/tp (one decoding, one receiving the next version)
//
// c must be valid.
func (c *Config) Memory() []PoolMemory {
	p := c.split()
	critic := func(f func(workload.Model, int) float64, n int) float64 {
		if !c.HasCritic() {
			return 0
		}
		return f(c.Critic, n)
	}
	n1 := len(p.first)
	gen := c.kvCacheBytes(n1)
	gathered := WeightBytes(c.Actor) * (1/float64(c.GenTP) - 1/float64(n1))
	mem := func(static, extra float64) PoolMemory {
		return PoolMemory{Static: units.Bytes(static), Peak: units.Bytes(static + extra)}
	}
	switch c.Placement {
	case CoLocated:
		static := trainStates(c.Actor, n1) + critic(trainStates, n1) + frozenWeights(c.Reference, n1) + frozenWeights(c.Reward, n1)
		return []PoolMemory{mem(static, gathered+gen)}
	case Interleaved:
		n2 := len(p.second)
		return []PoolMemory{
			mem(trainStates(c.Actor, n1)+frozenWeights(c.Reference, n1), gathered+gen),
			mem(critic(trainStates, n2)+frozenWeights(c.Reward, n2), 0),
		}
	}
	n2 := len(p.second)
	copies := 2 * WeightBytes(c.Actor) / float64(c.GenTP)
	return []PoolMemory{
		mem(copies, gen),
		mem(trainStates(c.Actor, n2)+critic(trainStates, n2)+frozenWeights(c.Reference, n2)+frozenWeights(c.Reward, n2), 0),
	}
}
