package hw

import (
	"strings"
	"testing"

	"paraplay/sim/units"
)

// TestPodsMatchPresets: every TPU preset has a pod, on its ICI link, with
// its figures cited and in range.
func TestPodsMatchPresets(t *testing.T) {
	pods := Pods()
	for i, p := range pods {
		if i > 0 && pods[i-1].TPU >= p.TPU {
			t.Errorf("pods not sorted: %s then %s", pods[i-1].TPU, p.TPU)
		}
		g, err := LookupGPU(p.TPU)
		if err != nil {
			t.Fatalf("pod %s: %v", p.TPU, err)
		}
		l, err := LookupLink(g.Link)
		if err != nil || l.Kind != KindICI {
			t.Errorf("pod %s: link %s (%v) is not ICI", p.TPU, g.Link, err)
		}
		if g.GPUsPerNode != p.HostChips() {
			t.Errorf("pod %s: preset says %d chips per host, pod's host %v holds %d", p.TPU, g.GPUsPerNode, p.Host, p.HostChips())
		}
		if n := p.Max[0] * p.Max[1] * p.Max[2]; n < p.Chips || p.Chips < 1 {
			t.Errorf("pod %s: %d chips do not fit %v", p.TPU, p.Chips, p.Max)
		}
		if (p.Dims == 3) != (p.Cube > 0) || (p.Dims == 2) != (p.Wrap > 0) || (p.Dims == 2 && p.Max[2] != 1) {
			t.Errorf("pod %s: %dD with cube %d, wrap %d, max %v", p.TPU, p.Dims, p.Cube, p.Wrap, p.Max)
		}
		if !(p.PCIe > 0) || !(p.DCN > 0) || p.Source == "" {
			t.Errorf("pod %s: PCIe %v, DCN %v, source %q", p.TPU, p.PCIe, p.DCN, p.Source)
		}
	}
	for _, g := range GPUs() {
		if _, ok := LookupPod(g.Name); ok != (g.Vendor == "Google") {
			t.Errorf("%s (%s): has a pod = %v", g.Name, g.Vendor, ok)
		}
	}
}

// TestWraps: a v5p slice wraps only on whole cubes (the book: 4x4x4 and
// 4x4x8 do, 2x2x4 does not); a v5e slice only on an axis of 16.
func TestWraps(t *testing.T) {
	v5p, _ := LookupPod("tpu-v5p")
	v5e, _ := LookupPod("tpu-v5e")
	for _, c := range []struct {
		pod   Pod
		shape [3]int
		want  [3]bool
	}{
		{v5p, [3]int{4, 4, 4}, [3]bool{true, true, true}},
		{v5p, [3]int{4, 4, 8}, [3]bool{true, true, true}},
		{v5p, [3]int{16, 20, 28}, [3]bool{true, true, true}},
		{v5p, [3]int{2, 2, 4}, [3]bool{}},
		{v5p, [3]int{2, 4, 4}, [3]bool{}},
		{v5e, [3]int{16, 16, 1}, [3]bool{true, true, false}},
		{v5e, [3]int{8, 16, 1}, [3]bool{false, true, false}},
		{v5e, [3]int{4, 4, 1}, [3]bool{}},
	} {
		if got := c.pod.Wraps(c.shape); got != c.want {
			t.Errorf("%s %v: wraps %v, want %v", c.pod.TPU, c.shape, got, c.want)
		}
	}
}

// TestTwistable: the twisted shapes of the Cloud v5p table.
func TestTwistable(t *testing.T) {
	v5p, _ := LookupPod("tpu-v5p")
	for shape, want := range map[[3]int]bool{
		{4, 4, 8}: true, {4, 8, 8}: true, {8, 8, 16}: true, {8, 16, 16}: true, {8, 4, 4}: true,
		{4, 4, 4}: false, {8, 8, 8}: false, {2, 2, 4}: false, {4, 4, 12}: false,
	} {
		if got := v5p.Twistable(shape); got != want {
			t.Errorf("v5p %v twistable = %v, want %v", shape, got, want)
		}
	}
	v5e, _ := LookupPod("tpu-v5e")
	if v5e.Twistable([3]int{8, 16, 16}) {
		t.Error("a 2D pod twists")
	}
}

// TestICIPerLink: the book's usable one-way figures per link.
func TestICIPerLink(t *testing.T) {
	for name, want := range map[string]units.Bandwidth{"ici-v4": 4.5e10, "ici-v5e": 4.5e10, "ici-v5p": 9e10, "ici-v6e": 9e10} {
		l, err := LookupLink(name)
		if err != nil || !near(float64(l.Effective()), float64(want), 1e-9) {
			t.Errorf("%s: effective %v (%v), want %v", name, l.Effective(), err, want)
		}
		if !strings.Contains(l.Source, "book") && !strings.Contains(l.Source, "Cloud") {
			t.Errorf("%s: source %q cites neither the Cloud page nor the book", name, l.Source)
		}
	}
}
