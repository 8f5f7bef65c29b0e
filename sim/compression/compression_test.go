package compression

import (
	"testing"

	"paraplay/sim/units"
)

func TestBytesAndTime(t *testing.T) {
	for _, tc := range []struct {
		b     units.Bytes
		ratio float64
		want  units.Bytes
	}{
		{units.MiB, 1, units.MiB},        // no compression
		{units.MiB, 0.25, units.MiB / 4}, // a quarter travels
		{1000, 0.001, 1},                 // rounded, at least a byte
		{1000, 0.0001, 1},
		{0, 0.5, 0}, // nothing stays nothing
	} {
		if got := Bytes(tc.b, tc.ratio); got != tc.want {
			t.Errorf("Bytes(%v, %v) = %v, want %v", tc.b, tc.ratio, got, tc.want)
		}
	}
	if got := Time(units.Millisecond, 4*units.MiB); got != 4*units.Millisecond {
		t.Errorf("Time(1ms per MiB, 4MiB) = %v, want 4ms", got)
	}
}

// Sparse keeps ratio of the values and adds an index to each: the closed
// form k·(v + i) with k = ratio·b/v.
func TestSparse(t *testing.T) {
	for _, tc := range []struct {
		b            units.Bytes
		ratio        float64
		value, index int
		k            int64
		wire         units.Bytes
	}{
		{64 * units.MiB, 0.2, 4, 4, 3355443, 26843544}, // 0.2 × 16 Mi fp32 values, 8 bytes each
		{64 * units.MiB, 0.2, 4, 0, 3355443, 13421772}, // the same values, no index
		{4000, 1, 4, 4, 1000, 8000},                    // every value: twice the dense bytes
		{4000, 0.5, 2, 4, 1000, 6000},                  // bf16 values: 1.5 × the kept bytes
		{4000, 1e-9, 4, 4, 1, 8},                       // at least one value
		{0, 0.5, 4, 4, 0, 0},                           // nothing stays nothing
	} {
		k, wire := Sparse(tc.b, tc.ratio, tc.value, tc.index)
		if k != tc.k || wire != tc.wire {
			t.Errorf("Sparse(%v, %v, %d, %d) = %d values, %v; want %d, %v", tc.b, tc.ratio, tc.value, tc.index, k, wire, tc.k, tc.wire)
		}
	}
}

func TestProjectionFLOPs(t *testing.T) {
	// 4 sequences of 2,048 tokens, h = 2,048, k = 20: 2·8192·2048·20.
	if got, want := ProjectionFLOPs(4*2048, 2048, 20), 671088640.0; got != want {
		t.Errorf("ProjectionFLOPs = %v, want %v", got, want)
	}
}
