package moe

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Skews: how unevenly a router spreads tokens.
const (
	Balanced  = "balanced"
	Lognormal = "lognormal"
	Zipf      = "zipf"
)

// Routing is how a router spreads the token copies over a layer's experts
// and what the system does about it.
type Routing struct {
	// Skew is Balanced (also when empty), Lognormal or Zipf.
	Skew string
	// CV is the lognormal weights' coefficient of variation, ≥ 0.
	CV float64
	// S is the Zipf exponent, ≥ 0.
	S float64
	// HotExperts puts the n heaviest weights on experts 0…n−1 in every
	// layer; 0 places them at random.
	HotExperts int
	// Histogram, when set, is every layer's relative load per expert
	// (one per expert, ≥ 0, not all 0): it replaces Skew.
	Histogram []float64
	// CapacityFactor caps each expert at CapacityFactor·copies/experts;
	// 0 is dropless.
	CapacityFactor float64
	// Redundant is EPLB's extra replicas of the hottest experts per layer,
	// a multiple of the expert-parallel degree.
	Redundant int
}

// Layout is where a layer's experts live.
type Layout struct {
	// Experts and TopK are the routed experts and each token's choices.
	Experts, TopK int
	// EP is the GPUs of an expert-parallel group, each holding
	// Experts/EP experts (expert e on GPU e/(Experts/EP)).
	EP int
	// Groups and TopGroups describe a group-limited router (0: top-k).
	Groups, TopGroups int
	// PerNode is the expert-parallel GPUs that share a node (0: one
	// node), for NodesPerToken.
	PerNode int
}

// Layer is one layer's routing in one step, for a microbatch of which
// each GPU of the group routes the same number of tokens.
type Layer struct {
	// Slots[j] lists the copies each expert replica on GPU j computes:
	// its Experts/EP own experts, then its redundant replicas.
	Slots [][]float64
	// Load[j] is GPU j's copies in all (the sum of Slots[j]).
	Load []float64
	// Share[e] is expert e's share of the copies the router sends
	// (before capacity), summing to 1.
	Share []float64
	// Copies is the token copies the group routes; Dropped those over
	// capacity.
	Copies, Dropped float64
	// NodesPerToken is the distinct nodes a token's copies reach.
	NodesPerToken float64
}

// Validate reports every problem with r for layout l, each naming the
// scenario key.
func (r Routing) Validate(l Layout) error {
	var errs []error
	bad := func(key, format string, args ...any) { errs = addf(errs, "model.moe."+key, format, args) }
	switch r.Skew {
	case "", Balanced, Lognormal, Zipf:
	default:
		bad("routing.skew", "%q is not known; allowed: balanced, lognormal, zipf", r.Skew)
	}
	if !(r.CV >= 0 && r.CV <= 10) {
		bad("routing.cv", "is %v; allowed 0..10", r.CV)
	}
	if !(r.S >= 0 && r.S <= 10) {
		bad("routing.s", "is %v; allowed 0..10", r.S)
	}
	if r.HotExperts < 0 || r.HotExperts > l.Experts {
		bad("routing.hot_experts", "is %d; allowed 0..experts (%d)", r.HotExperts, l.Experts)
	}
	if len(r.Histogram) > 0 {
		sum := 0.0
		for _, h := range r.Histogram {
			if !(h >= 0 && h <= 1e12) {
				sum = math.NaN()
				break
			}
			sum += h
		}
		if len(r.Histogram) != l.Experts || !(sum > 0) {
			bad("routing.histogram", "has %d loads summing to %v; want one per expert (%d), each 0..1e12, not all 0", len(r.Histogram), sum, l.Experts)
		}
	}
	if !(r.CapacityFactor == 0 || (r.CapacityFactor >= 0.01 && r.CapacityFactor <= 1000)) {
		bad("capacity_factor", "is %v; allowed 0 (dropless) or 0.01..1000", r.CapacityFactor)
	}
	if ep := max(l.EP, 1); r.Redundant < 0 || r.Redundant > l.Experts || r.Redundant%ep != 0 {
		bad("redundant", "is %d; allowed a multiple of parallel.ep (%d) from 0 to experts (%d): each GPU hosts as many replicas", r.Redundant, ep, l.Experts)
	}
	return errors.Join(errs...)
}

// addf appends to errs the error "prefix: " + format of args, the key. It is not inlined: the
// validators' closures call it from dozens of places, and an inlined
// fmt.Errorf at each costs the browser's download a few hundred bytes.
//
//go:noinline
func addf(errs []error, prefix, format string, args []any) []error {
	return append(errs, fmt.Errorf("%s: %s", prefix, fmt.Sprintf(format, args...)))
}

// Skewed reports whether r can make GPUs of a group differ: a skew other
// than balanced or a histogram.
func (r Routing) Skewed() bool {
	return len(r.Histogram) > 0 || (r.Skew == Lognormal && r.CV > 0) || (r.Skew == Zipf && r.S > 0)
}

// Route routes layer of step: each of the group's l.EP GPUs routes tokens
// tokens, top_k copies each. seed is the scenario's.
func Route(l Layout, r Routing, seed uint64, step, layer int, tokens float64) Layer {
	share := Popularity(l, r, seed, step, layer)
	out := Layer{Share: share, Copies: float64(max(l.EP, 1)) * tokens * float64(l.TopK)}
	kept := make([]float64, len(share))
	capacity := math.Inf(1)
	if r.CapacityFactor > 0 {
		capacity = r.CapacityFactor * out.Copies / float64(l.Experts)
	}
	for e, p := range share {
		kept[e] = min(out.Copies*p, capacity)
		out.Dropped += out.Copies*p - kept[e]
	}
	out.Slots, out.Load = place(l, r.Redundant, kept)
	out.NodesPerToken = NodesPerToken(l, share)
	return out
}

// Popularity is each expert's share of a layer's token copies in a step
// (see the package comment), after a group-limited router's groups.
func Popularity(l Layout, r Routing, seed uint64, step, layer int) []float64 {
	w := weights(l.Experts, r, rand.New(rand.NewPCG(seed, uint64(step)<<32^uint64(layer))))
	normalise(w)
	if l.Groups > 0 && l.TopGroups < l.Groups {
		limitGroups(w, l.Groups, l.TopGroups)
	}
	capShares(w, 1/float64(max(l.TopK, 1)))
	return w
}

// capShares holds every share at most c, handing the excess to the
// others in proportion to their shares (water-filling): a token's top_k
// copies go to distinct experts, so none receives more than 1/top_k of
// them.
func capShares(w []float64, c float64) {
	for range w {
		var excess, free float64
		for _, x := range w {
			if x > c {
				excess += x - c
			} else if x < c {
				free += x
			}
		}
		if excess <= 1e-15 || free <= 0 {
			return
		}
		for i, x := range w {
			if x > c {
				w[i] = c
			} else if x < c {
				w[i] = x + excess*x/free
			}
		}
	}
}

// weights draws the unnormalised weights of r's skew.
func weights(n int, r Routing, rng *rand.Rand) []float64 {
	w := make([]float64, n)
	switch {
	case len(r.Histogram) == n:
		copy(w, r.Histogram)
		return w
	case r.Skew == Lognormal && r.CV > 0:
		sigma := math.Sqrt(math.Log1p(r.CV * r.CV))
		for i := range w {
			w[i] = math.Exp(-sigma*sigma/2 + sigma*rng.NormFloat64())
		}
	case r.Skew == Zipf && r.S > 0:
		for i := range w {
			w[i] = math.Pow(float64(i+1), -r.S)
		}
		rng.Shuffle(n, func(i, j int) { w[i], w[j] = w[j], w[i] })
	default:
		for i := range w {
			w[i] = 1
		}
		return w
	}
	if h := r.HotExperts; h > 0 {
		// The h heaviest go to experts 0…h−1, heaviest first; the rest
		// keep their random order.
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return w[idx[i]] > w[idx[j]] })
		hot := map[int]bool{}
		out := make([]float64, 0, n)
		for _, i := range idx[:h] {
			out, hot[i] = append(out, w[i]), true
		}
		for i := range w {
			if !hot[i] {
				out = append(out, w[i])
			}
		}
		w = out
	}
	return w
}

func normalise(w []float64) {
	var sum float64
	for _, x := range w {
		sum += x
	}
	for i := range w {
		w[i] /= sum
	}
}

// limitGroups reshapes shares w for a router that lets each token use top
// of groups contiguous expert groups: group g is among a token's with
// probability π_g = min(1, c·P_g), c making Σπ = top (P_g its share),
// and receives the share π_g·P_g/Σπ·P, spread over its experts as before.
func limitGroups(w []float64, groups, top int) {
	per := len(w) / groups
	P := make([]float64, groups)
	for e, x := range w {
		P[e/per] += x
	}
	pi := make([]float64, groups)
	capped := make([]bool, groups)
	for range groups { // each pass caps at least one more group, or ends
		left, free := float64(top), 0.0
		for g := range P {
			if capped[g] {
				left--
			} else {
				free += P[g]
			}
		}
		changed := false
		for g := range P {
			if capped[g] {
				pi[g] = 1
				continue
			}
			pi[g] = left * P[g] / free
			if pi[g] > 1 {
				capped[g], changed = true, true
			}
		}
		if !changed {
			break
		}
	}
	var sum float64
	for g := range P {
		sum += pi[g] * P[g]
	}
	for e := range w {
		if g := e / per; P[g] > 0 {
			w[e] *= pi[g] / sum
		}
	}
}

// NodesPerToken is the expected distinct nodes a token's top_k copies
// reach, each copy drawn by the shares (with replacement, an
// approximation): Σ_n 1 − (1 − Q_n)^k over the nodes' shares Q_n; at most
// top_groups × the nodes a group spans under a group-limited router.
func NodesPerToken(l Layout, share []float64) float64 {
	ep := max(l.EP, 1)
	perNode := l.PerNode
	if perNode <= 0 || perNode > ep {
		perNode = ep
	}
	perGPU := l.Experts / ep
	nodes := make([]float64, (ep+perNode-1)/perNode)
	for e, p := range share {
		nodes[e/perGPU/perNode] += p
	}
	var n float64
	for _, q := range nodes {
		n += 1 - math.Pow(1-q, float64(l.TopK))
	}
	if l.Groups > 0 && l.TopGroups < l.Groups {
		span := math.Ceil(float64(l.Experts/l.Groups) / float64(perGPU*perNode))
		n = min(n, float64(l.TopGroups)*span)
	}
	return n
}

// DroppedLognormal is the dropped fraction a capacity factor cf leaves
// under lognormal weights of coefficient of variation cv, as experts
// grow: E[(X − cf)⁺] for X lognormal of mean 1 (its weights normalise to
// mean 1), the Black–Scholes form Φ(d₁) − cf·Φ(d₂) with d₁ = (σ²/2 −
// ln cf)/σ, d₂ = d₁ − σ and σ² = ln(1 + cv²).
func DroppedLognormal(cv, cf float64) float64 {
	sigma := math.Sqrt(math.Log1p(cv * cv))
	if sigma == 0 {
		return max(0, 1-cf)
	}
	d1 := (sigma*sigma/2 - math.Log(cf)) / sigma
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	return phi(d1) - cf*phi(d1-sigma)
}
