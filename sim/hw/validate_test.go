//go:build !js

// The catalog's checks (validate.go) are host-only: the browser build
// leaves them out, so their tests are too.

package hw

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/units"
)

func TestCatalogValidates(t *testing.T) {
	for _, g := range GPUs() {
		if err := g.Validate(); err != nil {
			t.Errorf("GPU %s: %v", g.Name, err)
		}
		if _, err := LookupLink(g.Link); err != nil {
			t.Errorf("GPU %s: default link: %v", g.Name, err)
		}
	}
	for _, l := range Links() {
		if err := l.Validate(); err != nil {
			t.Errorf("link %s: %v", l.Name, err)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	good, _ := LookupGPU("h100-sxm")
	link, _ := LookupLink("nvlink4")
	gpuTests := []struct {
		change func(*GPU)
		want   string
	}{
		{func(g *GPU) { g.Name = "H100_SXM" }, "lower-case"},
		{func(g *GPU) { g.Name = "h100--sxm" }, "non-empty words"},
		{func(g *GPU) { g.PeakFLOPS = 0 }, "peak"},
		{func(g *GPU) { g.Efficiency = 1.2 }, "efficiency"},
		{func(g *GPU) { g.Source = "" }, "source is empty"},
		{func(g *GPU) { g.Precision = "fp8" }, "precision"},
		{func(g *GPU) { g.PeakFP8 = g.PeakFLOPS / 2 }, "FP8 peak"},
		{func(g *GPU) { g.PeakFP8 = math.NaN() }, "FP8 peak"},
		{func(g *GPU) { g.GPUsPerNode = 0 }, "GPUs per node"},
		{func(g *GPU) { g.Link = "" }, "link"},
	}
	for _, tc := range gpuTests {
		g := good
		tc.change(&g)
		if err := g.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("GPU.Validate() = %v, want an error containing %q", err, tc.want)
		}
	}
	linkTests := []struct {
		change func(*Link)
		want   string
	}{
		{func(l *Link) { l.Kind = "carrier-pigeon" }, "kind"},
		{func(l *Link) { l.Achievable = 0 }, "achievable"},
		{func(l *Link) { l.Latency = -1 }, "latency"},
		{func(l *Link) { l.MeasuredSource = "" }, "no source"},
		{func(l *Link) { l.MeasuredBusBW = 2 * l.LineRate }, "exceeds"},
		{func(l *Link) { l.MeasuredBusBW = 0 }, "without a measured"},
		{func(l *Link) { l.LineRate = units.Bandwidth(math.Inf(1)) }, "line rate"},
	}
	for _, tc := range linkTests {
		l := link
		tc.change(&l)
		if err := l.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Link.Validate() = %v, want an error containing %q", err, tc.want)
		}
	}
}

func TestNegativeMeshPeersRejected(t *testing.T) {
	l, _ := LookupLink("infinity-fabric")
	l.MeshPeers = -1
	if err := l.Validate(); err == nil {
		t.Error("a link with -1 mesh peers validated")
	}
}

// TestSHARPNetworks: the InfiniBand presets reduce in their switches
// (SHARPSource), Ethernet does not, and a non-InfiniBand link that
// claims SHARP does not validate.
func TestSHARPNetworks(t *testing.T) {
	for name, want := range map[string]bool{"ib-hdr": true, "ib-ndr": true, "ib-xdr": true, "roce-400g": false, "eth-100g": false, "nvlink4": false} {
		l, err := LookupLink(name)
		if err != nil {
			t.Fatal(err)
		}
		if l.SHARP != want {
			t.Errorf("%s: SHARP %v, want %v", name, l.SHARP, want)
		}
	}
	l, _ := LookupLink("roce-400g")
	l.SHARP = true
	if err := l.Validate(); err == nil {
		t.Error("RoCE claiming SHARP validated")
	}
}
