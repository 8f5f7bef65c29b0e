package run

import (
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Compression of data-parallel traffic is priced by two numbers, as the
// surveyed compression papers report their methods: the fraction of the
// bytes that still travel (Deep Gradient Compression, Lin et al. ICLR 2018,
// sends about 0.1% of the gradient with its indices; PowerSGD, Vogels et
// al. NeurIPS 2019, sends rank-r factors, (m + n)·r of an m×n matrix) and
// the compute the encoder and decoder spend per byte of the original. The
// convergence cost is not modelled: Xu et al. (2024) report that naive
// compression of every traffic class raised throughput but hurt the loss,
// while strong compression of the data-parallel gradients alone kept it.
// compression.activations is that other traffic class: it scales a
// training run's pipeline messages and tp, cp and ep exchanges (training.go).

// compressed is the size of b bytes sent at the given ratio, at least 1.
func compressed(b units.Bytes, ratio float64) units.Bytes {
	if ratio >= 1 || b == 0 {
		return b
	}
	return max(1, units.Bytes(float64(b)*ratio+0.5))
}

// compressCost is the time c charges for a buffer of b bytes.
func compressCost(c scenario.Compression, b units.Bytes) units.Time {
	return units.Round(c.TimePerMiB.Seconds() * float64(b) / float64(units.MiB))
}

// compress applies the scenario's compression to a data-parallel gradient
// collective of a training run: the bytes on the wire shrink by the ratio,
// and each rank first spends compression.time_per_mib per MiB on its
// compute stream. It returns the ops the ranks now start after.
func (tr *training) compress(gpus, ready []int, bytes units.Bytes) ([]int, units.Bytes) {
	c := tr.s.Compression
	if !c.Enabled() {
		return ready, bytes
	}
	rd := append([]int(nil), ready...)
	if d := compressCost(c, bytes); d > 0 {
		for i := range rd {
			rd[i] = tr.g.AddCompute(timeline.Span{GPU: gpus[i], Kind: timeline.Compress, Label: "C"}, d, rd[i])
		}
	}
	return rd, compressed(bytes, c.Ratio)
}
