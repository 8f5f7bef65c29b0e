package training

import (
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
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
// model is then the sequence of 2L blocks, and stage k holding blocks
// [i, j) takes mult_k·(ends_k + w(i, j)·per_k) per microbatch, where
// w(i, j) is their share of a layer (by FLOPs), per_k the marginal layer's
// F+B+W time on stage k and ends_k its embedding or head. A dynamic
// programme over the contiguous cuts finds the smallest slowest stage
// (the linear-partition problem; every stage keeps at least one block).
// price re-prices the stages from c.layers; the layer-granular balance
// (costs.balance) must have run. Each stage's op times, blocking
// communication and activations then move by (x_k − L_k) marginal layers,
// x_k = w(i_k, j_k); c.layers keeps every layer a stage touches, so a
// split layer's weights count on both of its stages (an upper bound on
// memory). It returns the x_k.
func (c *costs) splitOperators(mult []float64, price func()) []float64 {
	stages := len(c.layers)
	base := c.snapshot()
	for k := range c.layers {
		c.layers[k]++
	}
	price()
	marginal := c.snapshot()
	for k := range c.layers {
		c.layers[k]--
	}
	c.restore(base)
	per, ends := make([]float64, stages), make([]float64, stages)
	for k := range per {
		for i := range 3 {
			per[k] += float64(marginal.op[i][k] - base.op[i][k])
			ends[k] += float64(base.op[i][k])
		}
		ends[k] -= float64(c.layers[k]) * per[k]
	}
	w := blockWeights(c.model, c.par)
	cut := cutBlocks(w, stages, func(k int, share float64) float64 { return mult[k] * (ends[k] + share*per[k]) })
	shares := make([]float64, stages)
	for k := range shares {
		for _, x := range w[cut[k]:cut[k+1]] {
			shares[k] += x
		}
		d := shares[k] - float64(c.layers[k])
		scale := func(base, marginal units.Time) units.Time {
			return max(0, base+units.Round(d*(marginal-base).Seconds()))
		}
		for i := range 3 {
			c.opTime[i][k] = max(1, scale(base.op[i][k], marginal.op[i][k]))
		}
		for i := range 2 {
			c.commTime[i][k] = scale(base.comm[i][k], marginal.comm[i][k])
		}
		c.actBytes[k] = max(0, base.act[k]+d*(marginal.act[k]-base.act[k]))
		c.layers[k] = (cut[k+1]+1)/2 - cut[k]/2 // every layer it touches
	}
	return shares
}

// stagePrices is a copy of every stage's prices.
type stagePrices struct {
	op   [3][]units.Time
	comm [2][]units.Time
	act  []float64
}

func (c *costs) snapshot() stagePrices {
	var s stagePrices
	for i := range s.op {
		s.op[i] = append([]units.Time(nil), c.opTime[i]...)
	}
	for i := range s.comm {
		s.comm[i] = append([]units.Time(nil), c.commTime[i]...)
	}
	s.act = append([]float64(nil), c.actBytes...)
	return s
}

func (c *costs) restore(s stagePrices) {
	for i := range s.op {
		copy(c.opTime[i], s.op[i])
	}
	for i := range s.comm {
		copy(c.commTime[i], s.comm[i])
	}
	copy(c.actBytes, s.act)
}

// blockWeights is the model's 2L blocks as shares of a layer: the
// attention block's hardware FLOPs over the layer's, then the MLP's.
func blockWeights(m workload.Model, p scenario.Parallel) []float64 {
	l := workload.LayerFLOPs(m, p.MicroBatchSize, p.TP, p.CP, workload.Recompute(p.Recompute))
	a := l.QKV.Plus(l.Attention).Plus(l.Projection).Hardware() / l.Total().Hardware()
	w := make([]float64, 2*m.Layers)
	for i := range w {
		w[i] = a
		if i%2 == 1 {
			w[i] = 1 - a
		}
	}
	return w
}

// cutBlocks splits the blocks of weights w into stages contiguous runs,
// each of one block at least, minimising the largest cost(k, share of
// run k); cut[k] is run k's first block, cut[stages] = len(w). Ties keep
// the earliest cut, so the result is deterministic.
func cutBlocks(w []float64, stages int, cost func(k int, share float64) float64) []int {
	n := len(w)
	prefix := make([]float64, n+1)
	for i, x := range w {
		prefix[i+1] = prefix[i] + x
	}
	// best[k][j]: the smallest slowest stage of stages 0..k holding blocks
	// [0, j); from[k][j] the first block of stage k there.
	best, from := make([][]float64, stages), make([][]int, stages)
	for k := range best {
		best[k], from[k] = make([]float64, n+1), make([]int, n+1)
		for j := range best[k] {
			best[k][j] = -1
			lo := k // stages before k hold one block each at least
			if k == 0 {
				best[k][j] = cost(0, prefix[j])
				if j == 0 {
					best[k][j] = -1
				}
				continue
			}
			for i := lo; i < j; i++ {
				if best[k-1][i] < 0 {
					continue
				}
				t := max(best[k-1][i], cost(k, prefix[j]-prefix[i]))
				if best[k][j] < 0 || t < best[k][j] {
					best[k][j], from[k][j] = t, i
				}
			}
		}
	}
	cut := make([]int, stages+1)
	cut[stages] = n
	for k := stages - 1; k > 0; k-- {
		cut[k] = from[k][cut[k+1]]
	}
	return cut
}

// retime is parallel.schedule: hetero-1f1b, HAPT's heterogeneity-aware
// 1F1B in ParaPlay's form: device d of a 1F1B pipeline waits, for
// microbatch i's gradient, for the round trip of its messages down the
// pipeline and back, 2·Σ_{j≥d} S_j (S_j: one message from device j to
// j+1, α + bytes/bandwidth on the first replica's path), beyond what
// 1F1B's p−d−1 warm-up forwards already cover (the downstream compute).
// Each extra forward in flight keeps it busy for one more microbatch's
// F+B (its slowest GPU's), so it gets ⌈2·Σ S_j / (F_d + B_d)⌉ extra
// warm-up forwards: the sends then hide under compute, at the price of
// that many more microbatches' activations held (the memory the run
// tracks). Returns the extras (nil when nothing changes).
func (tr *iteration) retime() []int {
	if tr.sch.Name != "hetero-1f1b" || tr.fid == ideal || tr.p2pBytes == 0 || tr.stages < 2 {
		return nil
	}
	mult := tr.stageMult()
	extra := make([]int, tr.stages)
	trip := units.Time(0)
	for d := tr.stages - 2; d >= 0; d-- {
		a, bw, err := tr.paths.Cost(tr.mpGroup[0][d][0], tr.mpGroup[0][d+1][0])
		if err != nil {
			continue
		}
		trip += 2 * (a + bw.TransferTime(tr.p2pBytes))
		f, _ := tr.op(pipeline.Op{Kind: pipeline.F}, d, false)
		b, _ := tr.op(pipeline.Op{Kind: pipeline.B}, d, false)
		cycle := float64(f+b) * mult[d]
		if cycle > 0 {
			extra[d] = int((float64(trip) + cycle - 1) / cycle)
		}
	}
	tr.sch.Retime(extra)
	return extra
}
