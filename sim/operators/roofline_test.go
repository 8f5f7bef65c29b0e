package operators

import (
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// h100 is the H100 SXM's roofline with a flat efficiency of eff.
func h100(t testing.TB, eff float64) Roofline {
	g, err := hw.LookupGPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	return FromGPU(g, func(Shape) float64 { return eff })
}

func mustPricer(t testing.TB, r Roofline) *Pricer {
	t.Helper()
	p, err := NewPricer(r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRooflineTime: a large GEMM is bound by its FLOPs, a residual add by
// its bytes, and each pays the launch overhead once.
func TestRooflineTime(t *testing.T) {
	r := h100(t, 0.5)
	big := gemm("big", Forward, BF16, GEMM{M: 8192, N: 8192, K: 8192, Batch: 1}, 2)
	add := pointwise("add", KindElementwise, Forward, BF16, 1<<26, 1, 2*(1<<26)*2, (1<<26)*2)
	for _, tc := range []struct {
		op   Op
		want units.Time
	}{
		{big, units.Round(big.FLOPs/(r.PeakFLOPS*0.5)) + DefaultLaunchOverhead},
		{add, units.Round(add.Bytes()/r.HBMBandwidth) + DefaultLaunchOverhead},
	} {
		got, err := mustPricer(t, r).Time(tc.op)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v (%v), want %v", tc.op.Name, got, err, tc.want)
		}
	}
}

// TestEfficiencySeesShapeOnly: the pricer hands the efficiency function
// each GEMM's Shape (no name, no model), and a shape-dependent efficiency
// scales GEMM times by its ratio.
func TestEfficiencySeesShapeOnly(t *testing.T) {
	var seen []GEMM
	r := h100(t, 1)
	r.Efficiency = func(s Shape) float64 {
		seen = append(seen, s.GEMM)
		if s.GEMM.M < 1024 {
			return 0.25
		}
		return 0.75
	}
	p := mustPricer(t, r)
	small := gemm("small", Forward, BF16, GEMM{M: 512, N: 4096, K: 4096, Batch: 1}, 2)
	large := gemm("large", Forward, BF16, GEMM{M: 4096, N: 4096, K: 4096, Batch: 1}, 2)
	ts, _ := p.Time(small)
	tl, _ := p.Time(large)
	if ratio := float64(tl-DefaultLaunchOverhead) / float64(ts-DefaultLaunchOverhead); ratio < 2.6 || ratio > 2.7 {
		t.Errorf("8× the FLOPs at 3× the efficiency: time ratio %.3f, want 8/3", ratio)
	}
	if len(seen) != 2 || seen[0] != small.GEMM || seen[1] != large.GEMM {
		t.Errorf("efficiency saw %v, want the two shapes", seen)
	}
}

// TestPricerCaches: the same shape is priced once, whatever its name or
// phase.
func TestPricerCaches(t *testing.T) {
	calls := 0
	r := h100(t, 1)
	r.Efficiency = func(Shape) float64 { calls++; return 0.6 }
	p := mustPricer(t, r)
	layer := mustLayer(t, llama405B(t, Flash))
	first, err := p.Total(layer)
	if err != nil {
		t.Fatal(err)
	}
	shapes, n := p.Shapes(), calls
	for range 10 {
		if again, _ := p.Total(layer); again != first {
			t.Fatalf("priced again: %v, want %v", again, first)
		}
	}
	if calls != n || p.Shapes() != shapes {
		t.Errorf("10 more pricings called efficiency %d more times and added %d shapes, want none", calls-n, p.Shapes()-shapes)
	}
	if kernels := layer.Totals().Kernels; shapes >= kernels {
		t.Errorf("%d shapes for %d kernels: the backward GEMMs of equal shape should share an entry", shapes, kernels)
	}
}

func TestPricerErrors(t *testing.T) {
	p := mustPricer(t, h100(t, 1))
	fp8 := gemm("fp8", Forward, FP8, GEMM{M: 64, N: 64, K: 64, Batch: 1}, 2)
	ring := collective("ring", Forward, "send_recv", "cp", 1e6)
	bad := mustPricer(t, h100(t, 1.5))
	for _, tc := range []struct {
		p    *Pricer
		op   Op
		want string
	}{
		{p, fp8, "no FP8 peak"},
		{p, ring, "sim/collective"},
		{bad, gemm("g", Forward, BF16, GEMM{M: 64, N: 64, K: 64, Batch: 1}, 2), "efficiency 1.5"},
	} {
		if _, err := tc.p.Time(tc.op); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.op.Name, err, tc.want)
		}
	}
	if _, err := NewPricer(Roofline{}); err == nil || !strings.Contains(err.Error(), "peak") {
		t.Errorf("empty roofline: error %v, want one about the peak", err)
	}
}

// TestFP8 halves what the layer's GEMMs keep and runs them at the FP8
// peak: with FP8FLOPS = 2× the bf16 peak, a compute-bound GEMM takes half
// the time.
func TestFP8(t *testing.T) {
	c := llama405B(t, Flash)
	bf := mustLayer(t, c)
	c.Precision = FP8
	f8 := mustLayer(t, c)
	if got, want := f8.Totals().SavedBytes, bf.Totals().SavedBytes; !(got < want) {
		t.Errorf("fp8 keeps %.0f bytes, want less than bf16's %.0f", got, want)
	}
	r := h100(t, 0.7)
	r.FP8FLOPS = 2 * r.PeakFLOPS
	p := mustPricer(t, r)
	var tb, t8 units.Time
	for i, o := range bf {
		if o.Name != "mlp.up" {
			continue
		}
		tb, _ = p.Time(o)
		t8, _ = p.Time(f8[i])
		if f8[i].DType != FP8 {
			t.Errorf("fp8 layer's mlp.up runs in %s", f8[i].DType)
		}
	}
	if ratio := float64(tb-DefaultLaunchOverhead) / float64(t8-DefaultLaunchOverhead); ratio < 1.99 || ratio > 2.01 {
		t.Errorf("fp8/bf16 GEMM time ratio %.3f, want 2 (the peaks' ratio)", ratio)
	}
}

// BenchmarkPrice405BLayer prices Llama 3 405B's layer (TP 8, SP, 8K,
// flash) from a cold cache and from a warm one.
func BenchmarkPrice405BLayer(b *testing.B) {
	layer := mustLayer(b, llama405B(b, Flash))
	r := h100(b, 0.6)
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			p, _ := NewPricer(r)
			if _, err := p.Total(layer); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		p, _ := NewPricer(r)
		for range b.N {
			if _, err := p.Total(layer); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLayer405B builds the 405B layer's op list.
func BenchmarkLayer405B(b *testing.B) {
	c := llama405B(b, Flash)
	c.Recompute = workload.RecomputeFull
	for range b.N {
		if _, err := Layer(c); err != nil {
			b.Fatal(err)
		}
	}
}
