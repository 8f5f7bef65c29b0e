package timeline

import (
	"strings"
	"testing"

	"paraplay/sim/units"
)

// TestNearOOMZone puts one GPU's peak just under 90% of its HBM, just
// over, at the limit and past it: only the two between 90% and 100% are
// in the warning zone, only the one past the limit is out of memory, and
// the summary's flags and warning agree.
func TestNearOOMZone(t *testing.T) {
	const hbm = 80 * units.GiB
	for _, c := range []struct {
		name       string
		peak       units.Bytes
		near, oom  bool
		warnsInSum bool
	}{
		{"89.9%", hbm * 899 / 1000, false, false, false},
		{"90.1%", hbm * 901 / 1000, true, false, true},
		{"100%", hbm, true, false, true},
		{"100.1%", hbm * 1001 / 1000, false, true, false},
		{"no capacity", hbm, false, false, false},
	} {
		capacity := units.Bytes(hbm)
		if c.name == "no capacity" {
			capacity = 0
		}
		m := Memory{Capacity: capacity, Parameters: c.peak, Peak: c.peak}
		if got := m.NearOOM(); got != c.near {
			t.Errorf("%s: NearOOM = %v, want %v", c.name, got, c.near)
		}
		if got := m.OOM(); got != c.oom {
			t.Errorf("%s: OOM = %v, want %v", c.name, got, c.oom)
		}
		tl := &Timeline{Title: c.name, GPUs: []GPU{{ID: 0, Name: "GPU 0"}}, Memory: []Memory{m}, Training: &Training{}}
		sum := tl.Summarize()
		g := sum.GPUs[0]
		if g.NearOOM != c.near || g.OOM != c.oom {
			t.Errorf("%s: summary near_oom %v, oom %v; want %v, %v", c.name, g.NearOOM, g.OOM, c.near, c.oom)
		}
		warned := false
		for _, w := range sum.Warnings {
			warned = warned || strings.Contains(w, "above 90% of HBM on 1 of 1 GPUs")
		}
		if warned != c.warnsInSum {
			t.Errorf("%s: warnings %q, want the 90%% warning %v", c.name, sum.Warnings, c.warnsInSum)
		}
	}
}

// TestReserveInSummary holds the summary's breakdown and its text to the
// reserve a GPU records: its own category, and a line naming its parts.
func TestReserveInSummary(t *testing.T) {
	r := Reserve{Context: 400 * units.MiB, Workspaces: 64 * units.MiB, Communicators: 441 * units.MiB, Allocator: 88 * units.MiB}
	m := Memory{Capacity: 80 * units.GiB, Parameters: units.GiB, Reserve: r}
	m.Peak = m.Static()
	tl := &Timeline{Title: "reserve", GPUs: []GPU{{ID: 0, Name: "GPU 0"}}, Memory: []Memory{m}, Training: &Training{}}
	sum := tl.Summarize()
	if got := sum.GPUs[0].Memory["reserve"]; got != r.Total() {
		t.Errorf("breakdown reserve %v, want %v", got, r.Total())
	}
	if got := sum.GPUs[0].Memory["activations"]; got != 0 {
		t.Errorf("breakdown activations %v, want 0 (the reserve is static)", got)
	}
	if sum.Reserve != r {
		t.Errorf("summary reserve %+v, want %+v", sum.Reserve, r)
	}
	var b strings.Builder
	if err := sum.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "memory reserve per GPU 0.97 GiB: CUDA context 400 MiB, cuBLAS workspaces 64 MiB, NCCL buffers 441 MiB, allocator 88 MiB"
	if !strings.Contains(b.String(), want) {
		t.Errorf("summary text:\n%s\nwant a line %q", b.String(), want)
	}
}

// TestNearOOMServing leaves a serving run's full HBM unflagged: its KV
// cache's block pool fills the memory on purpose.
func TestNearOOMServing(t *testing.T) {
	m := Memory{Capacity: 80 * units.GiB, Parameters: 78 * units.GiB, Peak: 78 * units.GiB}
	tl := &Timeline{Title: "serving", GPUs: []GPU{{ID: 0, Name: "GPU 0"}}, Memory: []Memory{m}}
	if g := tl.Summarize().GPUs[0]; g.NearOOM || g.OOM {
		t.Errorf("serving GPU at 97.5%%: near_oom %v, oom %v; want neither", g.NearOOM, g.OOM)
	}
}
