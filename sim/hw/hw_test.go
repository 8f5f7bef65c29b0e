package hw

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/units"
)

func TestNamesSortedUniqueWellFormed(t *testing.T) {
	var gpuNames, linkNames []string
	for _, g := range GPUs() {
		gpuNames = append(gpuNames, g.Name)
	}
	for _, l := range Links() {
		linkNames = append(linkNames, l.Name)
	}
	for kind, names := range map[string][]string{"GPU": gpuNames, "link": linkNames} {
		for i, n := range names {
			if err := validName(n); err != nil {
				t.Errorf("%s %q: %v", kind, n, err)
			}
			if i > 0 && names[i-1] >= n {
				t.Errorf("%s names not sorted and unique: %q then %q", kind, names[i-1], n)
			}
		}
	}
}

func TestRequiredPresetsExist(t *testing.T) {
	for _, name := range []string{"v100-sxm", "a100-sxm-40gb", "a100-sxm-80gb", "h100-sxm", "h100-pcie", "h200", "b200", "mi300x", "t4", "a10g", "h20", "h800", "gb200", "mi325x"} {
		if _, err := LookupGPU(name); err != nil {
			t.Error(err)
		}
	}
	for _, name := range []string{"nvlink2", "nvlink3", "nvlink4", "nvlink4-h800", "nvlink5", "pcie3", "pcie4", "pcie5", "ib-edr", "ib-hdr", "ib-ndr", "roce-400g", "eth-10g", "eth-100g", "wan-100m", "wan-1g", "wan-10g"} {
		if _, err := LookupLink(name); err != nil {
			t.Error(err)
		}
	}
}

// TestVendorTotals checks the per-direction rates against the totals that
// vendors print, which add both directions.
func TestVendorTotals(t *testing.T) {
	tests := []struct {
		link       string
		directions float64 // 2 for a bidirectional vendor total, 1 for a port rate
		want       units.Bandwidth
	}{
		{"nvlink2", 2, 300 * units.GBps},
		{"nvlink3", 2, 600 * units.GBps},
		{"nvlink4", 2, 900 * units.GBps},
		{"nvlink5", 2, 1800 * units.GBps},
		{"nvlink4-h800", 2, 400 * units.GBps},
		{"ib-hdr", 1, 25 * units.GBps},
		{"ib-ndr", 1, 50 * units.GBps},
		{"ib-ndr", 1, 400 * units.Gbps},
		{"roce-400g", 1, 50 * units.GBps},
		{"pcie4", 1, 31.5077e9},
		{"pcie5", 1, 63.0154e9},
		{"wan-100m", 1, 12.5e6},
	}
	for _, tc := range tests {
		l, err := LookupLink(tc.link)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.LineRate * units.Bandwidth(tc.directions); !near(float64(got), float64(tc.want), 1e-5) {
			t.Errorf("%s line rate × %g = %v, want %v", tc.link, tc.directions, got, tc.want)
		}
	}
	b200, _ := LookupGPU("b200")
	if b200.Link != "nvlink5" {
		t.Errorf("b200 default link = %q, want nvlink5", b200.Link)
	}
}

func TestLookupUnknownListsKnownNames(t *testing.T) {
	_, err := LookupGPU("h1000")
	if err == nil {
		t.Fatal("LookupGPU(h1000) succeeded")
	}
	for _, g := range GPUs() {
		if !strings.Contains(err.Error(), g.Name) {
			t.Errorf("error %q does not list %q", err, g.Name)
		}
	}
	_, err = LookupLink("nvlink9")
	if err == nil || !strings.Contains(err.Error(), "nvlink4") || !strings.Contains(err.Error(), "wan-1g") {
		t.Errorf("LookupLink(nvlink9) error = %v, want the known names", err)
	}
}

func TestCatalogReturnsCopies(t *testing.T) {
	g := GPUs()
	g[0].PeakFLOPS = 1
	l := Links()
	l[0].LineRate = 1
	if GPUs()[0].PeakFLOPS == 1 || Links()[0].LineRate == 1 {
		t.Error("changing a returned slice changed the catalog")
	}
}

func TestComputeTime(t *testing.T) {
	h100, _ := LookupGPU("h100-sxm")
	v100, _ := LookupGPU("v100-sxm")
	tests := []struct {
		gpu   GPU
		flops float64
		eff   float64
		want  units.Time
	}{
		{h100, 989.4e12, 1, units.Second},
		{h100, 989.4e12, 0.5, 2 * units.Second},
		{h100, 989.4e12, 0, 2 * units.Second}, // 0 → the default, 0.5
		{v100, 125e12 * 0.3, 0, units.Second},
		{v100, 1, 1, 0}, // 8e-15 s rounds to 0 ns
		{h100, 0, 0.5, 0},
	}
	for _, tc := range tests {
		if got := tc.gpu.ComputeTime(tc.flops, tc.eff); got != tc.want {
			t.Errorf("%s.ComputeTime(%g, %g) = %v, want %v", tc.gpu.Name, tc.flops, tc.eff, got, tc.want)
		}
	}
}

func TestComputeTimePanicsOnBadInput(t *testing.T) {
	h100, _ := LookupGPU("h100-sxm")
	for _, tc := range []struct{ flops, eff float64 }{{1, 1.5}, {1, -0.1}, {-1, 0.5}, {math.NaN(), 0.5}, {1, math.NaN()}, {math.Inf(1), 0.5}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ComputeTime(%g, %g) did not panic", tc.flops, tc.eff)
				}
			}()
			h100.ComputeTime(tc.flops, tc.eff)
		}()
	}
}

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// TestLookupAllocatesNothing: runs look presets up per node, so a found
// preset costs no allocation.
func TestLookupAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _, _ = LookupGPU("mi325x"); _, _ = LookupLink("ib-ndr") }); n != 0 {
		t.Errorf("a lookup allocates %v times, want 0", n)
	}
}
