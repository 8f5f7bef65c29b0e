package training

import (
	"paraplay/sim/compression"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

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
	if d := compression.Time(c.TimePerMiB, bytes); d > 0 {
		for i := range rd {
			rd[i] = tr.g.AddCompute(timeline.Span{GPU: gpus[i], Kind: timeline.Compress, Label: "C"}, d, rd[i])
		}
	}
	return rd, compression.Bytes(bytes, c.Ratio)
}
