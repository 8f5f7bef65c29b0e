package rlhf

import (
	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// Phases are the durations of one step's phases on the run's pools. A
// phase the placement does not have is 0.
type Phases struct {
	// Reshard is the actor's move from training to generation layout
	// (co-located and interleaved).
	Reshard units.Time
	// Generate is one batch of rollouts.
	Generate units.Time
	// Reference, Reward and CriticScore are the scoring passes.
	Reference, Reward, CriticScore units.Time
	// ActorTrain and CriticTrain are the training passes.
	ActorTrain, CriticTrain units.Time
	// Sync is the weights' trip back to the generator (disaggregated).
	Sync units.Time
}

// pools are the run's GPU groups: first generates (and, interleaved, holds
// the actor and reference), second trains (and holds the critic and
// reward); co-located has first only.
type pools struct {
	first, second []int
}

// split lays the GPUs out in pools.
func (c *Config) split() pools {
	ids := make([]int, c.GPUs)
	for i := range ids {
		ids[i] = i
	}
	if c.Placement == CoLocated {
		return pools{first: ids}
	}
	return pools{first: ids[:c.GenGPUs], second: ids[c.GenGPUs:]}
}

// firstGPU is the GPU type of the first pool: the training GPU when
// co-located, else GenGPU.
func (c *Config) firstGPU() hw.GPU {
	if c.Placement == CoLocated {
		return c.TrainGPU
	}
	return c.GenGPU
}

// Phases works out the durations of a step's phases (cost.go's formulas)
// for the placement: co-located runs every phase on all GPUs; interleaved
// runs the actor and reference on the first pool and the reward and
// critic on the second; disaggregated generates on the first pool and does
// everything else on the second. c must be valid.
func (c *Config) Phases() Phases {
	p := c.split()
	tokens := float64(c.Prompts) * float64(c.PromptLen+c.ResponseLen)
	g1, n1 := c.firstGPU(), len(p.first)
	var ph Phases
	ph.Generate = GenerateTime(c.Actor, g1, n1, c.GenTP, c.Prompts, c.PromptLen, c.ResponseLen)
	switch c.Placement {
	case CoLocated:
		ph.Reshard = ReshardTime(c.Actor, intraBandwidth(g1), n1, c.GenTP)
		ph.Reference = ForwardTime(c.Reference, g1, n1, tokens)
		ph.Reward = ForwardTime(c.Reward, g1, n1, tokens)
		ph.ActorTrain = TrainTime(c.Actor, g1, n1, tokens)
		if c.HasCritic() {
			ph.CriticScore = ForwardTime(c.Critic, g1, n1, tokens)
			ph.CriticTrain = TrainTime(c.Critic, g1, n1, tokens)
		}
	case Interleaved:
		g2, n2 := c.TrainGPU, len(p.second)
		ph.Reshard = ReshardTime(c.Actor, intraBandwidth(g1), n1, c.GenTP)
		ph.Reference = ForwardTime(c.Reference, g1, n1, tokens)
		ph.ActorTrain = TrainTime(c.Actor, g1, n1, tokens)
		ph.Reward = ForwardTime(c.Reward, g2, n2, tokens)
		if c.HasCritic() {
			ph.CriticScore = ForwardTime(c.Critic, g2, n2, tokens)
			ph.CriticTrain = TrainTime(c.Critic, g2, n2, tokens)
		}
	case Disaggregated:
		g2, n2 := c.TrainGPU, len(p.second)
		ph.Reference = ForwardTime(c.Reference, g2, n2, tokens)
		ph.Reward = ForwardTime(c.Reward, g2, n2, tokens)
		ph.ActorTrain = TrainTime(c.Actor, g2, n2, tokens)
		if c.HasCritic() {
			ph.CriticScore = ForwardTime(c.Critic, g2, n2, tokens)
			ph.CriticTrain = TrainTime(c.Critic, g2, n2, tokens)
		}
		ph.Sync = SyncTime(c.Actor, c.SyncBandwidth, c.SyncLatency, n1, c.GenTP, n2)
	}
	return ph
}

// TrainerStep is the training pool's busy time per step when it never
// waits for rollouts (disaggregated): scoring, training, and the weight
// sync spread over the SyncEvery steps it serves.
func (ph Phases) TrainerStep(syncEvery int) float64 {
	busy := ph.Reference + ph.Reward + ph.CriticScore + ph.ActorTrain + ph.CriticTrain
	return busy.Seconds() + ph.Sync.Seconds()/float64(syncEvery)
}
