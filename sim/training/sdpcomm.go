package training

import (
	"math"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

// sdpRefresh charges, after backward masking's steps (opt[r]: worker
// r's), the refresh of every slice's bf16 weights on the workers that do
// not hold it: one closed form over every worker (in both fidelities)
// whose time is α plus, at the bottleneck bandwidth, the most bytes a
// worker receives (the slices it lacks) or sends (its slices' share of
// the copies: each slice's holders split its dp − m copies). Its record
// is an all-gather of purpose "model".
func (tr *iteration) sdpRefresh(opt []int) error {
	sn := tr.sdp
	if sn.Masking != "backward" || tr.fid == ideal {
		return nil
	}
	gpus := make([]int, sn.n)
	total, worst := sn.total-sn.shared, 0.0 // the layers' parameters
	for w := range gpus {
		gpus[w] = tr.mpGroup[w][0][0]
		own := sn.held[w] - sn.shared
		worst = max(worst, total-own, own*float64(sn.n-sn.m)/float64(sn.m))
	}
	alpha, bw, err := tr.paths.Bottleneck(gpus)
	if err != nil {
		return err
	}
	tr.g.AddClosedForm(taskgraph.ClosedForm{Op: collective.OpAllGather, Algorithm: "sdp", Purpose: "model", Bytes: units.Bytes(2*total + 0.5),
		GPUs: gpus, Time: max(1, alpha+bw.TransferTime(units.Bytes(2*worst+0.5)))}, opt...)
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
	c, p := SDPOf(s), &s.Parallel
	m := c.Fraction * float64(p.DP)
	mdl, err := s.Model.Resolve()
	field, msg := "parallel.sdp.fraction", ""
	switch {
	case c.Masking != "backward" && c.Masking != "forward":
		field, msg = "parallel.sdp.masking", "allowed: backward, forward"
	case c.Level != "neuron" && c.Level != "block":
		field, msg = "parallel.sdp.level", "allowed: neuron, block"
	case c.Assignment != "cyclic" && c.Assignment != "disjoint":
		field, msg = "parallel.sdp.assignment", "allowed: cyclic, disjoint"
	case c.Fraction == 0:
	case !(c.Fraction > 0 && c.Fraction <= 1) || p.DP < 2 || math.Abs(m-math.Round(m)) > 1e-9:
		msg = "allowed 0 (off), or k/dp for k = 1 … dp, dp ≥ 2"
	case p.TP*p.PP*p.CP*p.EP != 1 || p.ZeRO != 0 || p.VirtualStages != 1 || p.Schedule == "zb-v" || p.Schedule == "dualpipev" || p.Schedule == "stp":
		msg = "allowed with data parallelism alone (tp, pp, cp, ep 1, zero 0, one model stage)"
	case err != nil || mdl.IsMoE():
		msg = "allowed with a dense model preset or shape"
	case len(s.Faults) > 0 || (s.Data.SeqDist != "" && s.Data.SeqDist != "fixed"):
		msg = "allowed without faults and data.seq_dist"
	case c.Assignment == "disjoint" && p.DP%int(math.Round(m)) != 0:
		field, msg = "parallel.sdp.assignment", "allowed: cyclic, or disjoint with f = 1/k"
	case c.Level == "neuron" && mdl.ValidateSplit(p.DP, 1) != nil:
		field, msg = "parallel.sdp.level", "allowed: block, or neuron with a dp dividing the heads, key/value heads and MLP units"
	}
	if msg != "" {
		bad(field, msg)
	}
}

// sdpWork bounds parallel.sdp's gradient sums and refresh (see
// detailedTransfers): per bucket, a ring all-reduce over every worker and
// at most dp group rings of f·dp workers (2(m−1)m messages each), and
// the refresh's dp(dp−m) messages; as closed forms, 1 + dp per bucket
// and one refresh.
func sdpWork(dp int, f, buckets, channels float64) (transfers, closedForms float64) {
	n := float64(dp)
	m := math.Round(f * n)
	ring := func(k float64) float64 { return 2 * (k - 1) * k }
	return channels*buckets*(ring(n)+n*ring(m)) + n*(n-m), buckets*(1+n) + 1
}
