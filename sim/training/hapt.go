package training

import (
	"math"

	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// HAPT (Liang et al. 2025, "HAPT: Heterogeneity-Aware Automated Parallel
// Training on Heterogeneous Clusters", arXiv 2509.24859; HARP in its 2026
// version) balances a pipeline over GPUs of different speeds below layer
// granularity, and re-times 1F1B so that messages over a slow link hide
// under compute. This file holds ParaPlay's versions of both.

// splitOperators is parallel.partition: operators. A layer is two blocks
// whose output is the hidden state: the attention block (QKV, attention,
// output projection) and the MLP; a cut between them sends the same b·s·h
// elements as a cut between layers, while a cut inside either block
// would send a wider tensor (3h after QKV, the MLP's inner width). The
// model is then the sequence of 2L blocks, a the attention block's share
// of a layer's FLOPs. Stage k, priced at L_k whole layers (after the
// layer-granular balance), takes per_k = t_k·F_layer/F_stage per layer
// (its F+B+W time t_k in proportion to FLOPs) and ends_k = t_k − L_k·per_k
// for its embedding or head; holding a share x of layers it takes
// μ_k·(ends_k + x·per_k). The smallest slowest-stage time T over
// contiguous cuts is found by bisection: for a given T, filling the
// stages in order with as many blocks as fit is feasible exactly when
// some contiguous cut reaches T (the linear-partition problem's greedy
// test; every stage keeps one block at least). Each stage's op times,
// blocking communication and activations then scale by x_k/L_k; c.layers
// keeps every layer a stage touches, so a split layer's weights count on
// both of its stages (an upper bound on memory).
func (c *costs) splitOperators(mult []float64) {
	m, p := c.model, c.par
	r := workload.Recompute(p.Recompute)
	l := workload.LayerFLOPs(m, p.MicroBatchSize, p.TP, p.CP, r)
	layer := l.Total().Hardware()
	a := l.QKV.Plus(l.Attention).Plus(l.Projection).Hardware() / layer
	w := [2]float64{a, 1 - a} // an attention block's share of a layer, an MLP's
	n := len(c.layers)
	per, ends := make([]float64, n), make([]float64, n)
	for k := range per {
		t := float64(c.opTime[0][k] + c.opTime[1][k] + c.opTime[2][k])
		per[k] = t * layer / workload.StageFLOPsOf(m, c.stage(k), p.MicroBatchSize, p.TP, p.CP, r).Hardware()
		ends[k] = t - float64(c.layers[k])*per[k]
	}
	// Each round cuts the 2L blocks for time T, shares[k] being stage k's
	// layers; the bisection keeps hi feasible (every block found a stage),
	// and the last round cuts at hi.
	shares := make([]float64, n)
	lo, hi := 0.0, 0.0
	for k := range per {
		hi = max(hi, mult[k]*(ends[k]+float64(m.Layers)*per[k]))
	}
	for round := 0; round <= 64; round++ {
		T := (lo + hi) / 2
		if round == 64 {
			T = hi
		}
		b := 0
		for k := range shares {
			shares[k] = 0
			for first := true; b < 2*m.Layers && (first || mult[k]*(ends[k]+(shares[k]+w[b%2])*per[k]) <= T) && 2*m.Layers-b > n-1-k; first = false {
				shares[k] += w[b%2]
				b++
			}
		}
		if b == 2*m.Layers {
			hi = T
		} else {
			lo = T
		}
	}
	from := 0.0
	for k, x := range shares {
		f := x / float64(c.layers[k])
		for i := range 3 {
			c.opTime[i][k] = max(1, units.Time(float64(c.opTime[i][k])*(ends[k]+x*per[k])/(ends[k]+float64(c.layers[k])*per[k])))
		}
		c.commTime[0][k] = units.Time(float64(c.commTime[0][k]) * f)
		c.commTime[1][k] = units.Time(float64(c.commTime[1][k]) * f)
		c.actBytes[k] *= f
		c.layers[k] = int(math.Ceil(from+x-1e-9)) - int(math.Floor(from+1e-9)) // every layer it touches
		from += x
	}
}

// retime is parallel.schedule: hetero-1f1b, HAPT's heterogeneity-aware
// 1F1B in ParaPlay's form: device d of a 1F1B pipeline waits, for
// microbatch i's gradient, for the round trip of its messages down the
// pipeline and back, 2·Σ_{j≥d} S_j (S_j: one message from device j to
// j+1, α + bytes/bandwidth on the first replica's path), beyond what
// 1F1B's p−d−1 warm-up forwards already cover (the downstream compute).
// The pipeline takes a microbatch every period P, its slowest stage's
// F+B+W (on its slowest GPU), so by Little's law that trip needs
// ⌈2·Σ S_j / P⌉ more microbatches in flight at device d: that many extra
// warm-up forwards hide the sends under compute, at the price of that
// many more microbatches' activations held (the memory the run tracks).
// Dividing by the device's own F+B instead would over-fill the fast
// stages, whose extra forwards then hold back the backward chain.
// Returns the extras (nil when nothing changes).
func (tr *iteration) retime() []int {
	if tr.sch.Name != "hetero-1f1b" || tr.fid == ideal || tr.p2pBytes == 0 {
		return nil
	}
	cycle := 0.0 // the pipeline's period: its slowest stage's F+B+W
	for k, m := range tr.stageMult() {
		cycle = max(cycle, float64(tr.opTime[0][k]+tr.opTime[1][k]+tr.opTime[2][k])*m)
	}
	extra := make([]int, tr.stages)
	trip := 0.0
	for d := tr.stages - 2; d >= 0; d-- {
		a, bw, err := tr.paths.Cost(tr.mpGroup[0][d][0], tr.mpGroup[0][d+1][0])
		if err != nil {
			return nil
		}
		trip += 2 * float64(a+bw.TransferTime(tr.p2pBytes))
		extra[d] = int(math.Ceil(trip / cycle))
	}
	tr.sch.Retime(extra)
	return extra
}
