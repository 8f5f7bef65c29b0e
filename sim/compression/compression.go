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
