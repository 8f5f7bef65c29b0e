package hw

import (
	"testing"

	"paraplay/sim/units"
)

// ringAllReduceBusBW is what nccl-tests would print for a ring all-reduce of
// s bytes on n GPUs joined by l, if the α–β model were the truth:
// t = 2(n−1)α + 2((n−1)/n)·S/B (Thakur, Rabenseifner & Gropp 2005, without
// the reduction term γ, which NCCL overlaps with the transfers), then
// algbw = S/t and busbw = algbw·2(n−1)/n (NVIDIA/nccl-tests
// doc/PERFORMANCE.md).
func ringAllReduceBusBW(l Link, n int, s units.Bytes) units.Bandwidth {
	steps := float64(2 * (n - 1))
	factor := steps / float64(n)
	t := steps*l.Latency.Seconds() + factor*float64(s)/float64(l.Effective())
	return units.Bandwidth(float64(s) / t * factor)
}

// TestCalibrationAgainstPublishedBusBW is the acceptance check of the link
// catalog: for large messages the modelled ring busbw of 8 GPUs must be
// within 10% of the published nccl-tests measurement each link carries.
func TestCalibrationAgainstPublishedBusBW(t *testing.T) {
	const n, size = 8, 8 * units.GiB // nccl-tests' usual 8 GB upper end
	calibrated := map[string]bool{}
	for _, l := range Links() {
		if l.MeasuredBusBW == 0 {
			continue
		}
		calibrated[l.Name] = true
		got := ringAllReduceBusBW(l, n, size)
		if !near(float64(got), float64(l.MeasuredBusBW), 0.10) {
			t.Errorf("%s: model ring busbw %.1f GB/s, measured %.1f GB/s: off by more than 10%%\nsource: %s",
				l.Name, float64(got)/1e9, float64(l.MeasuredBusBW)/1e9, l.MeasuredSource)
		}
		t.Logf("%s: model %.1f GB/s, measured %.1f GB/s", l.Name, float64(got)/1e9, float64(l.MeasuredBusBW)/1e9)
	}
	// The acceptance line: 8× h100-sxm over nvlink4 must be calibrated.
	h100, _ := LookupGPU("h100-sxm")
	a100, _ := LookupGPU("a100-sxm-80gb")
	for _, g := range []GPU{h100, a100} {
		if !calibrated[g.Link] {
			t.Errorf("%s's link %s carries no published measurement", g.Name, g.Link)
		}
	}
}

// TestLatencyBarelyMattersForLargeMessages guards the calibration's premise:
// at 8 GiB the α term is far below 1% of the ring time on every intra-node
// link, so busbw ≈ Effective.
func TestLatencyBarelyMattersForLargeMessages(t *testing.T) {
	for _, name := range []string{"nvlink3", "nvlink4"} {
		l, _ := LookupLink(name)
		got := ringAllReduceBusBW(l, 8, 8*units.GiB)
		if !near(float64(got), float64(l.Effective()), 0.001) {
			t.Errorf("%s: busbw %v vs effective %v", name, got, l.Effective())
		}
	}
}
