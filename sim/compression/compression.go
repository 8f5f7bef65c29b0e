package compression

import "paraplay/sim/units"

// Bytes is the size of b bytes sent at the given ratio, at least 1.
func Bytes(b units.Bytes, ratio float64) units.Bytes {
	if ratio >= 1 || b == 0 {
		return b
	}
	return max(1, units.Bytes(float64(b)*ratio+0.5))
}

// Time is the compute that compressing (or decompressing) a buffer of b
// bytes costs at perMiB per MiB.
func Time(perMiB units.Time, b units.Bytes) units.Time {
	return units.Round(perMiB.Seconds() * float64(b) / float64(units.MiB))
}

// Sparse is a sparse exchange of a fraction ratio of the values of a
// buffer of b bytes holding values of valueBytes each: the number of
// values kept, k = ⌊ratio·b/valueBytes + ½⌋ (at least 1 of a non-empty
// buffer), and the bytes on the wire when each travels with an index of
// indexBytes, k·(valueBytes + indexBytes). This is the encoding of a
// sparsified message that names its entries (Slim-DP's subset of
// parameters, Sun et al. 2017; Deep Gradient Compression's top entries,
// Lin et al. ICLR 2018); indexBytes 0 is a message whose receiver already
// knows the positions.
func Sparse(b units.Bytes, ratio float64, valueBytes, indexBytes int) (k int64, wire units.Bytes) {
	if b <= 0 || valueBytes <= 0 {
		return 0, 0
	}
	k = max(1, int64(min(ratio, 1)*float64(b)/float64(valueBytes)+0.5))
	return k, units.Bytes(k * int64(valueBytes+indexBytes))
}

// ProjectionFLOPs is the FLOPs of projecting rows vectors of width
// hidden onto a subspace of dimension rank, or of rebuilding them from
// their rank coordinates: one matrix product (rows × hidden)·(hidden ×
// rank), 2·rows·hidden·rank FLOPs (a multiply and an add per term).
// Protocol Models (Ramasinghe et al. 2025) send the coordinates of each
// activation in a fixed subspace across a pipeline cut and rebuild it on
// the other side, so a compressed message costs this twice.
func ProjectionFLOPs(rows, hidden, rank float64) float64 {
	return 2 * rows * hidden * rank
}
