package hw

import (
	"testing"

	"paraplay/sim/units"
)

// TestReserveCoversCatalog holds the reserve's generation table to the
// catalog: a new preset must say which family it belongs to.
func TestReserveCoversCatalog(t *testing.T) {
	for _, g := range GPUs() {
		if _, ok := generations[g.Name]; !ok {
			t.Errorf("%s: no entry in the reserve's generations table", g.Name)
		}
		// A TPU has no CUDA context: its reserve is 0, with a source.
		if r := g.Reserve(); (r.Total() <= 0 && generations[g.Name] != tpu) || r.Total() >= g.HBM/8 || r.Source == "" {
			t.Errorf("%s: reserve %v of %v HBM (source %q), want a positive sliver with a source", g.Name, r.Total(), g.HBM, r.Source)
		}
	}
}

// TestReserveFigures pins each family's context and workspaces to the
// figures their sources give.
func TestReserveFigures(t *testing.T) {
	for _, c := range []struct {
		gpu             string
		context, cublas units.Bytes
	}{
		{"h100-sxm", 400 * units.MiB, 64 * units.MiB},                    // 32 MiB cuBLAS + 32 MiB cuBLASLt
		{"a100-sxm-80gb", 400 * units.MiB, 12*units.MiB + 128*units.KiB}, // :4096:2:16:8 + 4 MiB
		{"v100-sxm", 400 * units.MiB, 9*units.MiB + 128*units.KiB},       // :4096:2:16:8 + 1 MiB
		{"b200", 700 * units.MiB, 64 * units.MiB},
		{"mi300x", 400 * units.MiB, 9*units.MiB + 128*units.KiB},
		{"custom", 400 * units.MiB, 64 * units.MiB},
	} {
		g := GPU{Name: c.gpu, HBM: 80 * units.GiB}
		if found, err := LookupGPU(c.gpu); err == nil {
			g = found
		}
		r := g.Reserve()
		if r.Context != c.context || r.CuBLAS != c.cublas {
			t.Errorf("%s: context %v, workspaces %v; want %v, %v", c.gpu, r.Context, r.CuBLAS, c.context, c.cublas)
		}
	}
}
