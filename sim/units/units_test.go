package units

import (
	"fmt"
	"math"
	"testing"
)

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want Time
		ok   bool
	}{
		{"5us", 5000, true}, {"5µs", 5000, true}, {"2.5ms", 2500000, true}, {"1s", Second, true},
		{"750ns", 750, true}, {" 3 ms ", 3 * Millisecond, true}, {"0s", 0, true}, {"1e3ns", 1000, true},
		{"5", 0, false}, {"-1ms", 0, false}, {"ms", 0, false}, {"1h", 3600 * Second, true},
		{"30m", 1800 * Second, true}, {"1.5d", 129600 * Second, true}, {"1hh", 0, false}, {"m", 0, false}, {"NaNs", 0, false},
		{"Infs", 0, false}, {"1e300s", 0, false}, {"0x10ns", 0, false}, {"", 0, false},
	}
	for _, tc := range tests {
		got, err := ParseTime(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want Bytes
		ok   bool
	}{
		{"256MiB", 256 << 20, true}, {"1GB", 1e9, true}, {"4096B", 4096, true}, {"1.5KiB", 1536, true},
		{"64 KiB", 64 << 10, true}, {"2kB", 2000, true},
		{"12", 0, false}, {"-1B", 0, false}, {"1ZB", 0, false}, {"1e30TB", 0, false},
	}
	for _, tc := range tests {
		got, err := ParseBytes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBytes(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseBandwidth(t *testing.T) {
	tests := []struct {
		in   string
		want Bandwidth
		ok   bool
	}{
		{"100GB/s", 100e9, true}, {"400Gbps", 50e9, true}, {"1TB/s", 1e12, true}, {"25 GiB/s", 25 << 30, true},
		{"0GB/s", 0, false}, {"100", 0, false}, {"fast", 0, false}, {"1e300TB/s", 0, false},
	}
	for _, tc := range tests {
		got, err := ParseBandwidth(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBandwidth(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestStringRoundTrips(t *testing.T) {
	for _, v := range []Time{0, 1, 999, 1000, 1500, 4056534, 3 * Second, 10056534} {
		got, err := ParseTime(v.String())
		if err != nil || got != v {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
	}
	for _, v := range []Bytes{0, 1, 1023, KiB, 256 * MiB, 3 * GiB, TiB} {
		got, err := ParseBytes(v.String())
		if err != nil || got != v {
			t.Errorf("ParseBytes(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
	}
	for _, v := range []Bandwidth{100 * GBps, 12.5 * GBps, 1e6, 50 * Gbps} {
		got, err := ParseBandwidth(v.String())
		if err != nil || math.Abs(float64(got-v)) > 1e-6*float64(v) {
			t.Errorf("ParseBandwidth(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
	}
}

func TestRoundAndTransferTime(t *testing.T) {
	if got := Round(1.5e-9); got != 2 {
		t.Errorf("Round(1.5ns) = %v, want 2ns", got)
	}
	if got := Round(1e30); got != MaxTime {
		t.Errorf("Round(1e30) = %v, want MaxTime", got)
	}
	// 1 MiB over 100 GB/s = 10485.76 ns → 10486 ns.
	if got := (100 * GBps).TransferTime(MiB); got != 10486 {
		t.Errorf("TransferTime(1MiB @ 100GB/s) = %d, want 10486", got)
	}
}

func ExampleParseBytes() {
	b, _ := ParseBytes("1.5GiB")
	fmt.Println(int64(b), b)
	// Output: 1610612736 1536MiB
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"5us", "256MiB", "100GB/s", "1e3ns", "-1", "NaN", "1.5.5ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseTime(s); err == nil && v < 0 {
			t.Errorf("ParseTime(%q) = %v < 0", s, v)
		}
		if v, err := ParseBytes(s); err == nil && v < 0 {
			t.Errorf("ParseBytes(%q) = %v < 0", s, v)
		}
		if v, err := ParseBandwidth(s); err == nil && !(v > 0) {
			t.Errorf("ParseBandwidth(%q) = %v, want > 0", s, v)
		}
	})
}
