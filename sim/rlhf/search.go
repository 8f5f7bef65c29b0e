//go:build !js

package rlhf

import (
	"fmt"
	"math"

	"paraplay/sim/hw"
)

// Deployment is one disaggregated deployment: the generation pool's and
// the training pool's GPU type, size and generation tensor parallelism,
// its steady rate and its price.
type Deployment struct {
	GenGPU, TrainGPU   string
	GenGPUs, TrainGPUs int
	GenTP              int
	// Rate is the steady steps per second of a disaggregated run with an
	// unbounded queue and staleness: min(1/T_gen, 1/T_train), the rate the
	// simulator's caption checks (the slower pool sets it).
	Rate float64
	// PerHour is the deployment's dollars per hour at the catalog's
	// assumed rates (AssumedPrice: assumptions, not quotes).
	PerHour float64
}

// DollarsPerStep is the deployment's cost of one step at its rate.
func (d Deployment) DollarsPerStep() float64 { return d.PerHour / 3600 / d.Rate }

// MaxSearchGPUs bounds each pool in Search.
const MaxSearchGPUs = 64

// Search is AReaL-Hex's question (Yan et al. 2025, arXiv 2511.00796) in
// ParaPlay's form: which GPU type and how many GPUs for the generation
// pool and for the training pool of c's disaggregated run give the most
// steps per second for at most budget dollars an hour. It enumerates
// every pair of types from types, every pool size up to MaxSearchGPUs
// and every generation tensor-parallel degree (1, 2, 4, 8 dividing the
// pool), keeps the deployments whose pools fit in HBM (Memory) and within
// the budget, and rates each with the phases' closed forms (Phases). The
// paper solves a MILP over each stage's parallelism and partitions a
// graph of GPUs and links; an exhaustive search over pool types and sizes
// is the same choice on a small menu. best is the fastest deployment (the
// cheaper on a tie), homogeneous the fastest whose two pools are of one
// type.
func Search(c Config, types []string, budget float64) (best, homogeneous Deployment, err error) {
	gpus := make([]hw.GPU, len(types))
	for i, name := range types {
		if gpus[i], err = hw.LookupGPU(name); err != nil {
			return best, homogeneous, fmt.Errorf("rlhf search: %w", err)
		}
	}
	c.Placement, c.Staleness, c.Queue = Disaggregated, Unbounded, 0
	better := func(d, than Deployment) bool {
		return d.Rate > than.Rate*(1+1e-12) || (math.Abs(d.Rate-than.Rate) <= 1e-12*than.Rate && d.PerHour < than.PerHour)
	}
	gen := map[[3]int]float64{} // generation seconds by (type, pool, tp)
	for i, g := range gpus {
		for j, t := range gpus {
			pg, pt := AssumedPrice(types[i]), AssumedPrice(types[j])
			for ng := 1; ng <= MaxSearchGPUs && float64(ng)*pg+pt <= budget; ng++ {
				for nt := 1; nt <= MaxSearchGPUs && float64(ng)*pg+float64(nt)*pt <= budget; nt++ {
					d, genBound := rate(c, g, t, ng, nt, func(tp int) float64 {
						k := [3]int{i, ng, tp}
						if v, ok := gen[k]; ok {
							return v
						}
						c.GenGPU, c.GenGPUs, c.GenTP = g, ng, tp
						gen[k] = GenerateTime(c.Actor, g, ng, tp, c.Prompts, c.PromptLen, c.ResponseLen).Seconds()
						return gen[k]
					})
					if d.Rate == 0 {
						continue
					}
					d.GenGPU, d.TrainGPU, d.PerHour = types[i], types[j], float64(ng)*pg+float64(nt)*pt
					if better(d, best) {
						best = d
					}
					if i == j && better(d, homogeneous) {
						homogeneous = d
					}
					if genBound {
						break // more trainers only cost more
					}
				}
			}
		}
	}
	if best.Rate == 0 {
		return best, homogeneous, fmt.Errorf("rlhf search: no deployment of %v fits in HBM for %.2f dollars an hour", types, budget)
	}
	return best, homogeneous, nil
}

// rate is the best steady rate of ng GPUs g generating and nt GPUs t
// training over the generation tensor-parallel degrees that fit (gen:
// generation's seconds at a degree), and whether generation bounds it.
func rate(c Config, g, t hw.GPU, ng, nt int, gen func(tp int) float64) (best Deployment, genBound bool) {
	c.GenGPU, c.TrainGPU, c.GPUs, c.GenGPUs = g, t, ng+nt, ng
	bound := true
	for _, tp := range []int{1, 2, 4, 8} {
		if ng%tp != 0 {
			continue
		}
		c.GenTP = tp
		if c.Validate() != nil {
			continue
		}
		mem := c.Memory()
		if mem[0].Peak > g.HBM || mem[1].Peak > t.HBM {
			continue
		}
		tg, tt := gen(tp), c.trainerStep()
		if r := math.Min(1/tg, 1/tt); r > best.Rate {
			best = Deployment{GenGPUs: ng, TrainGPUs: nt, GenTP: tp, Rate: r}
		}
		// More trainers can raise no degree's rate once every degree that
		// fits is bound by its generation (which does not depend on them).
		bound = bound && tg >= tt
	}
	return best, bound && best.Rate > 0
}

// trainerStep is Phases' disaggregated training pool's TrainerStep without
// the generation (a sum over every decoding step, which Search caches
// apart); TestSearchIsExhaustive holds Search to Phases itself.
func (c *Config) trainerStep() float64 {
	g, n := c.TrainGPU, c.GPUs-c.GenGPUs
	tokens := float64(c.Prompts) * float64(c.PromptLen+c.ResponseLen)
	ph := Phases{Reference: ForwardTime(c.Reference, g, n, tokens), Reward: ForwardTime(c.Reward, g, n, tokens),
		ActorTrain: TrainTime(c.Actor, g, n, tokens), Sync: SyncTime(c.Actor, c.SyncBandwidth, c.SyncLatency, c.GenGPUs, c.GenTP, n)}
	if c.HasCritic() {
		ph.CriticScore, ph.CriticTrain = ForwardTime(c.Critic, g, n, tokens), TrainTime(c.Critic, g, n, tokens)
	}
	return ph.TrainerStep(c.SyncEvery)
}
