package calibrate_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"paraplay/sim/calibrate"
	"paraplay/sim/hw"
	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/nccllog"
	"paraplay/sim/units"
)

// ncclTestsTime formats a time in µs as nccl-tests prints it: 2 decimals
// below 100 µs, 1 below 10 ms, none above.
func ncclTestsTime(us float64) string {
	switch {
	case us >= 10000:
		return fmt.Sprintf("%7.0f", us)
	case us >= 100:
		return fmt.Sprintf("%7.1f", us)
	}
	return fmt.Sprintf("%7.2f", us)
}

// syntheticLog writes the all_reduce_perf log a ring over n ranks gives
// on links of α alpha and bandwidth bw (time = 2(n−1)·α + 2(n−1)/n·S/bw),
// 8 B to 8 GiB by factors of 2, in nccl-tests' layout and precision.
func syntheticLog(n int, alpha units.Time, bw units.Bandwidth) string {
	var b strings.Builder
	b.WriteString("# Collective test starting: all_reduce_perf\n# Using devices\n")
	for r := range n {
		fmt.Fprintf(&b, "#  Rank %2d Group  0 Pid %6d on    node0 device %2d [0x%02x] NVIDIA A100-SXM4-80GB\n", r, 1000+r, r, r)
	}
	b.WriteString("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n")
	nf := float64(n)
	for s := int64(8); s <= 8<<30; s *= 2 {
		t := 2*(nf-1)*alpha.Seconds() + 2*(nf-1)/nf*float64(s)/float64(bw)
		algbw := float64(s) / t / 1e9
		row := fmt.Sprintf("%s %6.2f %6.2f %6d", ncclTestsTime(t*1e6), algbw, algbw*2*(nf-1)/nf, 0)
		fmt.Fprintf(&b, "%12d  %12d     float     sum      -1  %s  %s\n", s, s/4, row, row)
	}
	b.WriteString("# Avg bus bandwidth    : 1.0\n")
	return b.String()
}

// TestFitRecoversAlphaBeta holds the fit to a known α and β: an nccl-tests
// log made from them (rounded as nccl-tests prints) gives both back within
// 1%.
func TestFitRecoversAlphaBeta(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha units.Time
		bw    units.Bandwidth
	}{
		{8, 3700 * units.Nanosecond, 184.3 * units.GBps},
		{16, 12 * units.Microsecond, 22.5 * units.GBps},
		{2, 1900 * units.Nanosecond, 231 * units.GBps},
	} {
		l, err := nccllog.Parse(strings.NewReader(syntheticLog(c.n, c.alpha, c.bw)))
		if err != nil {
			t.Fatal(err)
		}
		points, err := calibrate.LogPoints(l, "synthetic.log", "", "ring", 0)
		if err != nil {
			t.Fatal(err)
		}
		fit, err := calibrate.FitLink(points)
		if err != nil {
			t.Fatal(err)
		}
		ea := math.Abs(float64(fit.Alpha-c.alpha)) / float64(c.alpha)
		eb := math.Abs(float64(fit.Bandwidth-c.bw)) / float64(c.bw)
		s := calibrate.SpreadOf(fit.Residuals)
		t.Logf("n=%d: α %v (want %v, %.3f%% off), bandwidth %v (want %v, %.4f%% off), %d points, residuals max %.3f%%",
			c.n, fit.Alpha, c.alpha, 100*ea, fit.Bandwidth, c.bw, 100*eb, len(points), 100*s.Max)
		if ea > 0.01 || eb > 0.01 {
			t.Errorf("n=%d: α %v and bandwidth %v; want %v and %v within 1%%", c.n, fit.Alpha, fit.Bandwidth, c.alpha, c.bw)
		}
	}
}

// TestFitSharedNCCLTrace fits the link to the shared 2-rank job's NCCL
// kernels and reports the fit with its residuals: a kernel's time holds
// its wait for the other rank, so the residuals are large (tens of %).
func TestFitSharedNCCLTrace(t *testing.T) {
	tr := kinetotest.Read(t, "kineto-nccl-2rank-rank0.json.gz")
	reps, err := kineto.Analyze([]*kineto.Trace{tr})
	if err != nil {
		t.Fatal(err)
	}
	points := calibrate.TracePoints(reps[0])
	fit, err := calibrate.FitLink(points)
	if err != nil {
		t.Fatal(err)
	}
	s := calibrate.SpreadOf(fit.Residuals)
	t.Logf("%d NCCL kernels: α %v, bandwidth %v; residuals median %.1f%%, max %.1f%%, rms %.1f%%",
		len(points), fit.Alpha, fit.Bandwidth, 100*s.Median, 100*s.Max, 100*s.RMS)
	if len(points) != 21 || len(fit.Residuals) != 21 || !(fit.Bandwidth > 0) {
		t.Errorf("%d points, %d residuals, bandwidth %v; want 21 kernels fitted", len(points), len(fit.Residuals), fit.Bandwidth)
	}
}

// TestFitGEMMScale recovers a known scale from times the model gives.
func TestFitGEMMScale(t *testing.T) {
	var points []calibrate.GEMMPoint
	for i := 1; i <= 20; i++ {
		launch, body := 4e-6, float64(i)*37e-6
		points = append(points, calibrate.GEMMPoint{Launch: launch, Body: body, Time: launch + body/0.73})
	}
	fit, err := calibrate.FitGEMM("a100-sxm-80gb", points, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(fit.Scale-0.73) > 1e-9 || calibrate.SpreadOf(fit.Residuals).Max > 1e-9 {
		t.Errorf("scale %v, residuals %v; want 0.73 exactly", fit.Scale, fit.Residuals)
	}
}

// TestFileRoundTrip writes a calibration and reads it back.
func TestFileRoundTrip(t *testing.T) {
	c := &hw.Calibration{Links: map[string]hw.LinkFit{"nvlink3": {Bandwidth: 184.3e9, Latency: 3700}, hw.IdealLink: {Bandwidth: 50e9, Latency: 0}},
		GEMMScale: map[string]float64{"a100-sxm-40gb": 0.87}}
	back, err := calibrate.Parse(calibrate.Marshal(c, []string{"a note"}))
	if err != nil {
		t.Fatal(err)
	}
	if back.Links["nvlink3"] != c.Links["nvlink3"] || back.Links[hw.IdealLink] != c.Links[hw.IdealLink] || back.GEMMScale["a100-sxm-40gb"] != 0.87 {
		t.Errorf("read back %+v, want %+v", back, c)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"links: {nvlink9: {bandwidth: 1GB/s, latency: 1us}}", `calibration.links.nvlink9: hw: unknown link "nvlink9"`},
		{"links: {nvlink3: {bandwidth: fast, latency: 1us}}", "calibration.links.nvlink3.bandwidth: invalid bandwidth"},
		{"links: {nvlink3: {bandwidth: 1GB/s, latency: 2s}}", "calibration.links.nvlink3.latency: is 2s; allowed 0..1s"},
		{"gemm_scale: {h100-sxm: 0}", "calibration.gemm_scale.h100-sxm: is 0; allowed 0.01..100"},
		{"gemm_scales: {h100-sxm: 1}", "field gemm_scales not found"},
		{"links: [1, 2]", "calibration:"},
	} {
		_, err := calibrate.Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

// FuzzParse: any bytes give a valid calibration or an error.
func FuzzParse(f *testing.F) {
	f.Add([]byte("links:\n  ib-hdr: {bandwidth: 22.5GB/s, latency: 4us}\ngemm_scale:\n  h100-sxm: 0.9\n"))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := calibrate.Parse(data)
		if err != nil {
			return
		}
		if err := calibrate.Validate(c); err != nil {
			t.Fatalf("Parse returned an invalid calibration: %v", err)
		}
	})
}

// TestCalibrationValidate holds a measured calibration's entries to known
// presets and sane ranges, and its lookups to the catalog where it is
// silent.
func TestCalibrationValidate(t *testing.T) {
	ok := &hw.Calibration{Links: map[string]hw.LinkFit{"ib-hdr": {Bandwidth: 20e9, Latency: 5000}, hw.IdealLink: {Bandwidth: 1e9}},
		GEMMScale: map[string]float64{"h100-sxm": 0.9}}
	if err := calibrate.Validate(ok); err != nil {
		t.Fatal(err)
	}
	bad := &hw.Calibration{Links: map[string]hw.LinkFit{"ib-hdx": {Bandwidth: 20e9}, "ib-hdr": {Bandwidth: 0}},
		GEMMScale: map[string]float64{"h100": 0.9, "h200": 1e6}}
	err := calibrate.Validate(bad)
	for _, want := range []string{"calibration.links.ib-hdx", "calibration.links.ib-hdr.bandwidth: is 0MB/s", "calibration.gemm_scale.h100:", "calibration.gemm_scale.h200: is 1e+06"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want an error naming %q", err, want)
		}
	}
	hdr, _ := hw.LookupLink("ib-hdr")
	ndr, _ := hw.LookupLink("ib-ndr")
	if bw, lat := ok.Port(hdr); bw != 20e9 || lat != 5000 {
		t.Errorf("ib-hdr: %v, %v", bw, lat)
	}
	if bw, lat := ok.Port(ndr); bw != ndr.Effective() || lat != ndr.Latency {
		t.Errorf("ib-ndr (not calibrated): %v, %v", bw, lat)
	}
	var none *hw.Calibration
	if none.Scale("h100-sxm") != 1 || ok.Scale("h100-sxm") != 0.9 || ok.Scale("b200") != 1 {
		t.Error("GEMM scales")
	}
}
