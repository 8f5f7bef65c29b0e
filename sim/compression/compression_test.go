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
