//go:build !js

package opgraph

import (
	"math"
	"math/rand/v2"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// A per-operator parallelization search after FlexFlow (Jia, Zaharia and
// Aiken 2019, "Beyond Data and Model Parallelism for Deep Neural
// Networks"), reduced to the two splits a chain of these operators
// supports: each operator with parameters is split by its samples (every
// GPU its share of the batch, the weights replicated and their gradient
// all-reduced) or by its parameters (every GPU a 1/G slice of the output
// channels on the whole batch, the output all-gathered so that the next
// operator sees all of it). Operators without parameters follow the
// samples. The search is FlexFlow's: a Markov chain Monte Carlo walk that
// flips one operator's split at a time, accepting a worse plan with
// probability exp(−β·Δ/cost), the cost model pricing every candidate;
// deterministic from its seed. Host only; graph.search flexflow runs it
// and plays the best plan (search.go).
//
// The cost model (FlexCost) uses the simulator's prices, summed along the
// operators in order with no overlap (FlexFlow's own simulator overlaps
// them; this one is an upper bound of such a schedule):
//
//	compute   3·forward(b/G) by samples, 3·forward(b)/G by parameters
//	sync      a ring all-reduce of the bf16 gradient, 2(G−1)·α + 2(G−1)/G·2P/B,
//	          for each operator split by samples
//	gather    by parameters: (G−1)·α + (G−1)/G·A/B for the output A, and as
//	          much again for the input when the operator before it was split
//	          by samples; its input gradient all-reduced backward,
//	          2(G−1)·α + 2(G−1)/G·A_in/B
//
// with α and B the links' latency and bandwidth between two GPUs.

// Split is how FlexCost splits one operator.
type Split uint8

// The splits.
const (
	BySamples Split = iota
	ByParams
)

// Links are the α and bandwidth between two GPUs, for FlexCost.
type Links struct {
	Alpha units.Time
	B     units.Bandwidth
}

// FlexCost prices plan (one Split per operator; an operator without
// parameters is always split by samples) for a batch of b on G GPUs of
// gpu over links l, in seconds (see the comment above).
func FlexCost(g Graph, plan []Split, b, G int, gpu hw.GPU, l Links) float64 {
	gf := float64(G)
	ring := func(bytes float64, steps float64) float64 { // steps·(G−1)·α + steps·(G−1)/G·bytes/B
		return steps * (gf - 1) * (l.Alpha.Seconds() + bytes/gf/float64(l.B))
	}
	var t float64
	prev := BySamples
	for i, o := range g.Ops {
		s := BySamples
		if o.Params() > 0 {
			s = plan[i]
		}
		if s == BySamples {
			t += 3 * forwardTime(o, b/G, gpu).Seconds()
			if p := o.Params(); p > 0 && G > 1 {
				t += ring(2*float64(p), 2)
			}
		} else {
			t += 3 * forwardTime(o, b, gpu).Seconds() / gf
			t += ring(float64(outBytes(o, b)), 1)
			if i > 0 {
				in := float64(outBytes(g.Ops[i-1], b))
				if prev == BySamples {
					t += ring(in, 1)
				}
				t += ring(in, 2)
			}
		}
		prev = s
	}
	return t
}

// FlexSearch walks the plans of g by MCMC from pure data parallelism for
// steps steps at temperature β, seeded by seed, and returns the cheapest
// plan it met and its cost.
func FlexSearch(g Graph, b, G int, gpu hw.GPU, l Links, steps int, beta float64, seed uint64) ([]Split, float64) {
	plan, cost, _ := flexWalk(g, b, G, gpu, l, steps, beta, seed)
	return plan, cost
}

// flexStep is a step of the walk at which the best plan improved, and its
// cost in seconds (step 0: the data-parallel start).
type flexStep struct {
	Step int
	Cost float64
}

// flexWalk is FlexSearch, with every improvement of the best plan.
func flexWalk(g Graph, b, G int, gpu hw.GPU, l Links, steps int, beta float64, seed uint64) ([]Split, float64, []flexStep) {
	var ops []int // the operators with parameters, the ones to choose for
	for i, o := range g.Ops {
		if o.Params() > 0 {
			ops = append(ops, i)
		}
	}
	plan := make([]Split, len(g.Ops))
	cost := FlexCost(g, plan, b, G, gpu, l)
	best, bestCost := append([]Split(nil), plan...), cost
	walk := []flexStep{{0, cost}}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	for step := range steps {
		if len(ops) == 0 {
			break
		}
		i := ops[rng.IntN(len(ops))]
		plan[i] ^= 1
		c := FlexCost(g, plan, b, G, gpu, l)
		if c <= cost || rng.Float64() < math.Exp(-beta*(c-cost)/cost) {
			cost = c
			if c < bestCost {
				best, bestCost = append(best[:0], plan...), c
				walk = append(walk, flexStep{step + 1, c})
			}
		} else {
			plan[i] ^= 1
		}
	}
	return best, bestCost, walk
}

// FlexExhaustive prices every plan of g (2^k for k operators with
// parameters, k ≤ 20) and returns the cheapest.
func FlexExhaustive(g Graph, b, G int, gpu hw.GPU, l Links) ([]Split, float64) {
	var ops []int
	for i, o := range g.Ops {
		if o.Params() > 0 {
			ops = append(ops, i)
		}
	}
	if len(ops) > 20 {
		return nil, math.Inf(1)
	}
	plan := make([]Split, len(g.Ops))
	var best []Split
	bestCost := math.Inf(1)
	for mask := 0; mask < 1<<len(ops); mask++ {
		for k, i := range ops {
			plan[i] = Split(mask >> k & 1)
		}
		if c := FlexCost(g, plan, b, G, gpu, l); c < bestCost {
			best, bestCost = append([]Split(nil), plan...), c
		}
	}
	return best, bestCost
}
