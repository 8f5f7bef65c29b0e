package training

import (
	"math"
	"slices"

	"paraplay/sim/operators"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Subnetwork data parallelism (parallel.sdp; Singh, Khalid, Oyallon and
// Belilovsky, "Model Parallelism With Subnetwork Data Parallelism", 2025):
// each of the dp workers trains its own structured part of the model on
// its own data, and no activations pass between workers.
//
// Slices. The layers' parameters are cut into dp slices: at neuron level
// slice s is 1/dp of every layer's attention heads (their query, key,
// value and output-projection weights) and MLP units, as a tensor-parallel
// rank's shard is; at block level it is the whole layers b with b mod dp
// = s, so a subnetwork keeps blocks at every depth. What no slice holds —
// the embedding, the final norm, the head, and at neuron level the
// layers' norms — every worker holds.
//
// Assignment. The paper builds its subnetworks so that every parameter is
// represented uniformly across the workers; here every slice is held by
// exactly m = f·dp workers, so each worker holds f of the layers'
// parameters: cyclic gives worker w the slices w, w+1, …, w+m−1 (mod dp),
// so slice s is summed over the m workers s−m+1 … s, a different group
// for each slice; disjoint cuts the workers into dp/m groups of m
// consecutive ones, group g holding the slices s with s mod (dp/m) = g.
//
// Costs, per worker w (held_w: the parameters it holds, Ψ: all of them):
//
//	backward masking  memory 2Ψ + (2 + 12)·held_w, every activation;
//	                  compute F and B of every layer, W of its slices;
//	forward masking   memory (2 + 2 + 12)·held_w, its slices' activations;
//	                  compute F, B and W of its slices only;
//
// with mixed-precision Adam's 2 + 2 + 12 bytes a parameter (ZeRO's K =
// 12). Backward masking keeps every bf16 weight because its forward runs
// the whole model, so after each step the workers that updated a slice
// send its new weights to the others (the refresh: each non-holder gets
// the slice from one holder, the holders taking turns). A neuron-level
// slice's compute and activations are the layer's interpolated between
// the whole layer and its 1/dp tensor-parallel shard (exact for the
// activations and the FLOPs, which are affine in the heads and units;
// for time it ignores how the GEMM model's efficiency bends in between);
// at block level they are whole layers'. The gradients are summed after
// the backward, bucket by bucket as plain data parallelism's: one ring
// all-reduce per group of workers holding the same slices, and one over
// every worker for the parameters every worker holds.
//
// Not modelled: that a block-level backward could stop below the worker's
// lowest slice, and that backward masking could drop the inputs kept
// only for masked weights' gradients (both kept: an upper bound); the
// refresh overlapping the next forward (it is charged after the step, as
// ZeRO-1/2's gather is); any effect on what the model learns.
type subnets struct {
	scenario.SDP
	n, m   int       // workers (dp) and workers holding each slice (f·dp)
	slices []float64 // parameters of each slice
	shared float64   // parameters every worker holds
	total  float64   // every parameter of the model
	held   []float64 // held[w]: the parameters worker w holds
	// times[w] is worker w's F, B and W compute (and zero blocking
	// communication), act[w] the activation bytes one microbatch leaves
	// on it, flops[w] its FLOPs for one microbatch.
	times [][5]units.Time
	act   []float64
	flops []workload.OpFLOPs
}

// holds reports whether worker w holds slice s.
func (sn *subnets) holds(w, s int) bool {
	if sn.Assignment == "disjoint" {
		return s%(sn.n/sn.m) == w/sn.m
	}
	return (s-w+sn.n)%sn.n < sn.m
}

// holders lists the workers that hold slice s, in order.
func (sn *subnets) holders(s int) []int {
	var out []int
	for w := 0; w < sn.n; w++ {
		if sn.holds(w, s) {
			out = append(out, w)
		}
	}
	return out
}

// layerCost is one layer's F, B (with recomputation) and W time, the
// activations one microbatch leaves in it, and its FLOPs.
type layerCost struct {
	t     [3]float64
	act   float64
	flops workload.OpFLOPs
}

// layerCosts prices one layer as opTimes and stageCosts do: by its
// operator list when the roofline applies, else by its FLOPs.
func (c *costs) layerCosts(act activations) layerCost {
	fl := workload.LayerFLOPs(c.model, c.par.MicroBatchSize, c.par.TP, 1, workload.Recompute(c.par.Recompute))
	tot, lin := fl.Total(), fl.Linear()
	lc := layerCost{act: act.perLayer, flops: tot, t: [3]float64{
		float64(c.time(tot.Forward, lin.Forward)),
		float64(c.time(tot.BackwardInput+tot.Recompute, lin.BackwardInput+lin.Recompute)),
		float64(c.time(tot.BackwardWeight, lin.BackwardWeight))}}
	if ph, ok := pricedPhases(c, act.cfg); ok && act.dense && !c.explicitEff {
		l := ph[0]
		lc.t = [3]float64{float64(l.Forward), float64(l.BackwardInput + l.Recompute), float64(l.BackwardWeight)}
	}
	return lc
}

// subnetworks lays out parallel.sdp's slices and prices every worker
// (see subnets); nil when it is off. act is the whole layer's
// activations; eager and precision rebuild them for a 1/dp slice.
func (tr *iteration) subnetworks(act activations) (*subnets, error) {
	c, cfg := &tr.costs, tr.par.SDP
	if !cfg.On() || !c.real {
		return nil, nil
	}
	n, L := c.par.DP, c.model.Layers
	sn := &subnets{SDP: cfg, n: n, m: int(math.Round(cfg.Fraction * float64(n))), slices: make([]float64, n)}
	p := workload.Params(c.model)
	sn.total, sn.shared = float64(p.Total()), float64(p.Embedding+p.FinalNorm+p.Head)
	whole, one := c.layerCosts(act), layerCost{}
	if cfg.Level == "neuron" {
		norms := 2 * float64(p.FinalNorm) // a layer's two norms: every worker's
		sn.shared += float64(L) * norms
		for s := range sn.slices {
			sn.slices[s] = float64(L) * (float64(p.PerLayer) - norms) / float64(n)
		}
		shard := *c // one slice is a tensor-parallel rank's shard of n
		shard.par.TP = n
		a, err := shard.activations(tr.s.Model.Eager(), operators.DType(tr.s.Training.Precision))
		if err != nil {
			return nil, err
		}
		one = shard.layerCosts(a)
	} else {
		for b := 0; b < L; b++ {
			sn.slices[b%n] += float64(p.PerLayer)
		}
	}
	for w := 0; w < n; w++ {
		sn.price(c, w, whole, one)
	}
	return sn, nil
}

// price works out worker w's parameters, op times, activations and FLOPs
// from a whole layer's costs and (neuron level) a 1/dp slice's, one.
func (sn *subnets) price(c *costs, w int, whole, one layerCost) {
	L, n := float64(c.model.Layers), float64(sn.n)
	held, blocks := sn.shared, 0.0
	for s, ps := range sn.slices {
		if sn.holds(w, s) {
			held += ps
		}
	}
	for b := 0; b < c.model.Layers; b++ {
		if sn.holds(w, b%sn.n) {
			blocks++
		}
	}
	// part is the worker's share of L layers that each cost full (one: a
	// slice of 1/n of a layer).
	part := func(full, one float64) float64 {
		if sn.Level == "block" {
			return blocks * full
		}
		f := float64(sn.m) / n
		return L * (full - (1-f)*(full-one)*n/(n-1))
	}
	fwd := sn.Masking == "forward"
	var t [5]units.Time
	for kind := range 3 {
		v := float64(c.opTime[kind][0])
		if fwd || kind == int(pipeline.W) {
			v += part(whole.t[kind], one.t[kind]) - L*whole.t[kind]
		}
		t[kind] = max(1, units.Time(math.Round(v)))
	}
	act := c.actBytes[0]
	fl := workload.HeadFLOPs(c.model, c.par.MicroBatchSize, 1, 1)
	scaled := func(x float64) float64 { return part(x, x/n) }
	fl.BackwardWeight += scaled(whole.flops.BackwardWeight)
	if fwd {
		act += part(whole.act, one.act) - L*whole.act
		fl.Forward += scaled(whole.flops.Forward)
		fl.BackwardInput += scaled(whole.flops.BackwardInput)
		fl.Recompute += scaled(whole.flops.Recompute)
	} else {
		fl = fl.Plus(workload.OpFLOPs{Forward: L * whole.flops.Forward, BackwardInput: L * whole.flops.BackwardInput, Recompute: L * whole.flops.Recompute})
	}
	sn.held = append(sn.held, held)
	sn.times = append(sn.times, t)
	sn.act = append(sn.act, act)
	sn.flops = append(sn.flops, fl)
}

// states is worker w's parameters, gradients and optimizer states:
// backward masking keeps every bf16 weight for its full forward.
func (sn *subnets) states(w int) (params, grads, opt units.Bytes) {
	p := sn.held[w]
	if sn.Masking == "backward" {
		p = sn.total
	}
	return units.Bytes(2*p + 0.5), units.Bytes(2*sn.held[w] + 0.5), units.Bytes(workload.AdamStateBytes*sn.held[w] + 0.5)
}

// group is a set of workers that sum the gradients of the same
// parameters: bytes of bf16 gradients each.
type group struct {
	workers []int
	bytes   units.Bytes
	purpose string // "dp": every worker (the shared parameters); "sdp": a slice group
}

// groups lists the gradient sums: the shared parameters over every
// worker, then one per distinct set of holders (slices with the same
// holders are summed together, as one communicator's buckets are).
func (sn *subnets) groups() []group {
	all := make([]int, sn.n)
	for w := range all {
		all[w] = w
	}
	gs := []group{{all, units.Bytes(2*sn.shared + 0.5), "dp"}}
	for s, ps := range sn.slices {
		h := units.Bytes(2*ps + 0.5)
		ws := sn.holders(s)
		i := 0
		for i < len(gs) && !slices.Equal(gs[i].workers, ws) {
			i++
		}
		if i == len(gs) {
			gs = append(gs, group{ws, 0, "sdp"})
		}
		gs[i].bytes += h
	}
	return gs
}

// communicators is how many NCCL communicators worker w opens: one per
// group of two or more workers it is in.
func (sn *subnets) communicators(w int) int {
	n := 0
	for _, g := range sn.groups() {
		if len(g.workers) > 1 && slices.Contains(g.workers, w) {
			n++
		}
	}
	return n
}
