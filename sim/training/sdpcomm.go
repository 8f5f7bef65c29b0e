package training

import (
	"math"

	"paraplay/sim/collective"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

// sdpGradients adds subnetwork data parallelism's gradient sums (see
// subnets): bucket by bucket, as gradients adds plain data parallelism's,
// each group's share of the bucket summed by a ring all-reduce over the
// group's workers alone; done[r] collects what worker r's step waits for.
func (tr *iteration) sdpGradients(done [][]int) error {
	last := tr.lastBackward(0, 0)
	nb := max(1, len(tr.buckets[0][0]))
	for j := 0; j < nb; j++ {
		for _, g := range tr.sdp.groups() {
			var gpus, ready []int
			for _, r := range g.workers {
				gpus = append(gpus, tr.mpGroup[r][0][0])
				id := tr.ids[r][0][last.Kind][last.Microbatch]
				if nb > 1 {
					id = tr.buckets[r][0][j]
				}
				ready = append(ready, id)
			}
			bytes := g.bytes / units.Bytes(nb)
			if j == nb-1 {
				bytes += g.bytes % units.Bytes(nb)
			}
			if len(gpus) == 1 || tr.fid == ideal || bytes == 0 {
				for i, r := range g.workers {
					done[r] = append(done[r], ready[i])
				}
				continue
			}
			rd, bytes := tr.compress(gpus, ready, bytes)
			ids, err := tr.collective(collective.OpAllReduce, g.purpose, gpus, rd, bytes)
			if err != nil {
				return err
			}
			for i, r := range g.workers {
				done[r] = append(done[r], ids[i])
			}
		}
	}
	return nil
}

// sdpRefresh sends, after backward masking's steps (opt[r]: worker r's),
// every slice's new bf16 weights from its holders to the workers that do
// not hold it, the i-th of them from holder i mod m: one message each on
// the links (detailed), or one closed form over every worker whose time
// is α plus the most bytes a worker sends or receives at the bottleneck
// bandwidth (analytic). Its record is an all-gather of purpose "model".
func (tr *iteration) sdpRefresh(opt []int) error {
	sn := tr.sdp
	if sn.Masking != "backward" || sn.m == sn.n || tr.fid == ideal {
		return nil
	}
	sch := collective.Schedule{Op: collective.OpAllGather, Algorithm: "sdp", Ranks: sn.n}
	load := make([]units.Bytes, sn.n) // the bytes each worker sends and receives
	for s, ps := range sn.slices {
		bytes := units.Bytes(2*ps + 0.5)
		if bytes == 0 {
			continue
		}
		sch.Bytes += bytes
		h := sn.holders(s)
		i := 0
		for w := 0; w < sn.n; w++ {
			if sn.holds(w, s) {
				continue
			}
			src := h[i%sn.m]
			i++
			sch.Transfers = append(sch.Transfers, collective.Transfer{Src: src, Dst: w, Chunk: s, Bytes: bytes, Phase: "weights"})
			load[src] += bytes
			load[w] += bytes
		}
	}
	gpus := make([]int, sn.n)
	for r := range gpus {
		gpus[r] = tr.mpGroup[r][0][0]
	}
	if tr.fid != detailed {
		alpha, bw, err := tr.paths.Bottleneck(gpus)
		if err != nil {
			return err
		}
		worst := units.Bytes(0)
		for _, b := range load {
			worst = max(worst, b)
		}
		tr.g.AddClosedForm(taskgraph.ClosedForm{Op: sch.Op, Algorithm: sch.Algorithm, Purpose: "model", Bytes: sch.Bytes, GPUs: gpus,
			Time: max(1, alpha+bw.TransferTime(worst))}, opt...)
		return nil
	}
	tr.g.AddSchedule(sch, gpus, opt, "model")
	return nil
}

// sdpOptimizerStep is worker r's optimizer step: 28 bytes of HBM traffic
// per parameter it holds (see optimizerStep).
func (tr *iteration) sdpOptimizerStep(r int) units.Time {
	return max(1, units.Round(28*tr.sdp.held[r]/float64(tr.gpu.HBMBandwidth)))
}

// checkSDP checks parallel.sdp: its keys, and the plans it runs on — data
// parallelism alone (one model stage, no tp, cp, ep or ZeRO) on a dense
// model, f·dp whole, and at neuron level a dp that divides every layer's
// heads, key/value heads and MLP units.
func checkSDP(s *scenario.Scenario, bad scenario.Reporter) {
	p, c := s.Parallel, s.Parallel.SDP
	for _, k := range []struct{ key, v, a, b string }{{"masking", c.Masking, "backward", "forward"},
		{"level", c.Level, "neuron", "block"}, {"assignment", c.Assignment, "cyclic", "disjoint"}} {
		if k.v != k.a && k.v != k.b {
			bad("parallel.sdp."+k.key, "%q is not known; allowed: %s, %s", k.v, k.a, k.b)
		}
	}
	if !c.On() {
		return
	}
	m := math.Round(c.Fraction * float64(p.DP))
	if !(c.Fraction > 0 && c.Fraction <= 1) || p.DP < 2 || math.Abs(c.Fraction*float64(p.DP)-m) > 1e-9 {
		bad("parallel.sdp.fraction", "is %v with parallel.dp %d; allowed 0 (off), or k/dp for k = 1 … dp with dp ≥ 2 (f·dp workers hold each slice)", c.Fraction, p.DP)
		return
	}
	if c.Assignment == "disjoint" && p.DP%int(m) != 0 {
		bad("parallel.sdp.assignment", "is disjoint, but f·dp = %v does not divide dp %d; allowed: cyclic, or f = 1/k", m, p.DP)
	}
	one := true
	if sch, err := pipeline.New(p.Schedule, p.PP, p.Microbatches, p.ChunksArg()); err == nil {
		one = sch.ModelStages() == 1
	}
	mdl, err := s.Model.Resolve()
	switch {
	case p.TP*p.PP*p.CP*p.EP != 1 || p.ZeRO != 0 || !one:
		bad("parallel.sdp.fraction", "is set with tp %d, pp %d, cp %d, ep %d, zero %d; allowed with data parallelism alone (tp, pp, cp, ep 1, zero 0, one model stage)", p.TP, p.PP, p.CP, p.EP, p.ZeRO)
	case err != nil || mdl.IsMoE():
		bad("parallel.sdp.fraction", "is set, but the model is synthetic or a mixture of experts; allowed with a dense model preset or shape")
	case len(s.Faults) > 0 || imperfectData(s):
		bad("parallel.sdp.fraction", "is set with faults or data.seq_dist; allowed with neither (not modelled)")
	case c.Level == "neuron":
		if err := mdl.ValidateSplit(p.DP, 1); err != nil {
			bad("parallel.sdp.level", "is neuron, but %v (a slice is 1/dp of each layer's heads and units); allowed: block, or such a dp", err)
		}
	}
}

// imperfectData reports whether s draws variable sequence lengths.
func imperfectData(s *scenario.Scenario) bool {
	return s.Data.SeqDist != "" && s.Data.SeqDist != "fixed"
}

// sdpWork bounds parallel.sdp's gradient sums and refresh (see
// detailedTransfers): per bucket, a ring all-reduce over every worker and
// at most dp group rings of f·dp workers (2(m−1)m messages each), and
// the refresh's dp(dp−m) messages; as closed forms, 1 + dp per bucket
// and one refresh.
func sdpWork(p scenario.Parallel, buckets, channels float64) (transfers, closedForms float64) {
	n := float64(p.DP)
	m := math.Round(p.SDP.Fraction * n)
	ring := func(k float64) float64 { return 2 * (k - 1) * k }
	return channels*buckets*(ring(n)+n*ring(m)) + n*(n-m), buckets*(1+n) + 1
}
