package training

import (
	"math"

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
	SDP
	n, m   int       // workers (dp) and workers holding each slice (f·dp)
	slices []float64 // parameters of each slice
	shared float64   // parameters every worker holds
	total  float64   // every parameter of the model
	held   []float64 // held[w]: the parameters worker w holds
	// cut[w] is the layers' worth of work worker w leaves out, L less the
	// layers it holds (block level) or L·(1−f) (neuron level); each
	// costs d of F, B and W time and of activations (the whole layer's
	// less a 1/dp slice's, over the 1 − 1/dp it leaves out, at neuron
	// level) and flops of model and hardware FLOPs per microbatch (every
	// FLOP of a layer, or only its weight gradients for backward masking).
	cut   []float64
	d     [4]float64
	flops [2]float64
}

// SDP is the parallel.sdp section: subnetwork data parallelism's
// settings (see subnets).
type SDP struct {
	// Fraction is f, the share of each layer's parameters a worker holds:
	// 0 (off), or k/dp for k = 1 … dp (the k workers that hold each slice).
	Fraction float64
	// Masking is backward (the whole forward; gradients only for the
	// subnetwork) or forward (the masked parameters skip the forward and
	// the backward too).
	Masking string
	// Level is neuron (a slice is 1/dp of every layer's heads and MLP
	// units) or block (a slice is whole transformer layers).
	Level string
	// Assignment is cyclic or disjoint (see subnets).
	Assignment string
}

// sdpSection is the key of the SDP settings, with their rows of the
// field table (data: package scenario reads and writes them).
var sdpSection = scenario.Section{Name: "parallel.sdp", Default: SDP{Masking: "backward", Level: "block", Assignment: "cyclic"},
	Rows: []scenario.Row{{Key: "fraction", Param: "sdp", Field: "Fraction", Help: "k/dp, e.g. 0.5 (0 = off)"},
		{Key: "masking", Param: "sdp_masking", Field: "Masking", Help: "backward or forward"},
		{Key: "level", Param: "sdp_level", Field: "Level", Help: "neuron or block"},
		{Key: "assignment", Param: "sdp_assignment", Field: "Assignment", Help: "cyclic or disjoint"}}}

// SDPOf is s's parallel.sdp section.
func SDPOf(s *scenario.Scenario) SDP { return scenario.Get[SDP](s, sdpSection.Name) }

// holds reports whether worker w holds slice s.
func (sn *subnets) holds(w, s int) bool {
	if sn.Assignment == "disjoint" {
		return s%(sn.n/sn.m) == w/sn.m
	}
	return (s-w+sn.n)%sn.n < sn.m
}

// layerCost is one layer's F, B (with recomputation) and W time and the
// activations one microbatch leaves in it; and its FLOPs.
type layerCost struct {
	c     [4]float64
	flops workload.OpFLOPs
}

// layerCosts prices one layer as opTimes and stageCosts do: by its
// operator list when the roofline applies, else by its FLOPs.
func (c *costs) layerCosts(act activations) layerCost {
	fl := workload.LayerFLOPs(c.model, c.par.MicroBatchSize, c.par.TP, 1, workload.Recompute(c.par.Recompute))
	tot, lin := fl.Total(), fl.Linear()
	lc := layerCost{flops: tot, c: [4]float64{
		float64(c.time(tot.Forward, lin.Forward)),
		float64(c.time(tot.BackwardInput+tot.Recompute, lin.BackwardInput+lin.Recompute)),
		float64(c.time(tot.BackwardWeight, lin.BackwardWeight)), act.perLayer}}
	if ph, ok := pricedPhases(c, act.cfg); ok && act.dense && !c.explicitEff {
		l := ph[0]
		lc.c[0], lc.c[1], lc.c[2] = float64(l.Forward), float64(l.BackwardInput+l.Recompute), float64(l.BackwardWeight)
	}
	return lc
}

// subnetworks lays out parallel.sdp's slices and what each worker holds
// and leaves out (see subnets); nil when it is off or f = 1 (plain data
// parallelism). act is the whole layer's activations.
func (tr *iteration) subnetworks(act activations) (*subnets, error) {
	c, cfg := &tr.costs, SDPOf(&tr.s)
	n, L := c.par.DP, c.model.Layers
	m := int(math.Round(cfg.Fraction * float64(n)))
	if m == 0 || m == n || !c.real {
		return nil, nil
	}
	sn := &subnets{SDP: cfg, n: n, m: m, slices: make([]float64, n)}
	p := workload.Params(c.model)
	per := float64(p.PerLayer)
	sn.total, sn.shared = float64(p.Total()), float64(p.Embedding+p.FinalNorm+p.Head)
	whole, one, k := c.layerCosts(act), layerCost{}, 1.0
	if cfg.Level == "neuron" {
		norms := 2 * float64(p.FinalNorm) // a layer's two norms: every worker's
		sn.shared += float64(L) * norms
		per -= norms
		c.par.TP = n // a 1/n slice is a tensor-parallel rank's shard of n
		a, err := c.activations(tr.s.Model.Eager(), operators.DType(tr.s.Training.Precision))
		if err != nil {
			return nil, err
		}
		one, k = c.layerCosts(a), float64(n)/float64(n-1)
		c.par.TP = 1
	}
	for s := range sn.slices {
		if cfg.Level == "neuron" { // 1/n of every layer
			sn.slices[s] = float64(L) * per / float64(n)
		} else { // the layers b ≡ s mod n
			sn.slices[s] = float64((L-s+n-1)/n) * per
		}
	}
	for i := range sn.d {
		sn.d[i] = k * (whole.c[i] - one.c[i])
	}
	fl := whole.flops
	sn.flops = [2]float64{fl.BackwardWeight, fl.BackwardWeight}
	if cfg.Masking == "forward" {
		sn.flops = [2]float64{fl.Model(), fl.Hardware()}
	}
	sn.held, sn.cut = make([]float64, n), make([]float64, n)
	for w := range sn.held {
		held := sn.shared
		for s, ps := range sn.slices {
			if sn.holds(w, s) {
				held += ps
			}
		}
		sn.held[w], sn.cut[w] = held, float64(L)-(held-sn.shared)/per
	}
	return sn, nil
}

// sdpTimes is worker w's F, B and W compute (and no blocking
// communication): the stage's, less the layers it leaves out of its
// masked passes (all three with forward masking, W alone with backward).
func (tr *iteration) sdpTimes(w int) (t [5]units.Time) {
	sn := tr.sdp
	for kind := range 3 {
		v := float64(tr.opTime[kind][0])
		if sn.Masking == "forward" || kind == int(pipeline.W) {
			v -= sn.cut[w] * sn.d[kind]
		}
		t[kind] = max(1, units.Time(math.Round(v)))
	}
	return t
}

// sdpActivations is what one microbatch leaves on worker w: every
// layer's with backward masking, its part's with forward masking.
func (tr *iteration) sdpActivations(w int) float64 {
	if tr.sdp.Masking == "forward" {
		return tr.actBytes[0] - tr.sdp.cut[w]*tr.sdp.d[3]
	}
	return tr.actBytes[0]
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

// sdpGroups lists the gradient sums: the shared parameters over every
// worker, then one per set of holders — slice g's, workers g−m+1 … g
// (cyclic), or group g's slices g, g + dp/m, … over workers g·m …
// g·m+m−1 (disjoint), as one communicator sums its buckets.
func (tr *iteration) sdpGroups() []group {
	sn := tr.sdp
	k := sn.n
	if sn.Assignment == "disjoint" {
		k /= sn.m
	}
	gs := make([]group, k+1)
	for i := range gs {
		g := &gs[i]
		b, first, size := sn.shared, 0, sn.n
		g.purpose = "dp"
		if i > 0 {
			b, first, size, g.purpose = 0, i-sn.m, sn.m, "sdp"
			if k < sn.n {
				first = (i - 1) * sn.m
			}
			for s := i - 1; s < sn.n; s += k {
				b += sn.slices[s]
			}
		}
		g.bytes = units.Bytes(2*b + 0.5)
		g.replicas, g.gpus = make([]int, size), make([]int, size)
		for j := range size {
			w := (first + j + sn.n) % sn.n
			g.replicas[j], g.gpus[j] = w, tr.mpGroup[w][0][0]
		}
	}
	return gs
}

// communicators is how many NCCL communicators a worker opens: every
// worker's, and one per slice group it is in (m of them, cyclic; one,
// disjoint); a slice of one holder sums nothing.
func (sn *subnets) communicators() int {
	switch {
	case sn.m == 1:
		return 1
	case sn.Assignment == "disjoint":
		return 2
	}
	return 1 + sn.m
}
