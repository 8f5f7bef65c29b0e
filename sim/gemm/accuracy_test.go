package gemm

import (
	"math"
	"os"
	"slices"
	"testing"

	"paraplay/sim/hw"
)

// measured is the published tables (sim/gemm/published, read from disk:
// that package imports this one), through the parser.
func measured(t testing.TB) []Measurement {
	t.Helper()
	var text []byte
	for _, name := range []string{"published/xla_matmul.txt", "published/cookbook_a100.txt"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text = append(append(text, b...), '\n')
	}
	ms, err := ParseMeasurements(text)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// stats compares m with the measurements of ms that keep accepts.
func stats(t testing.TB, m *Model, ms []Measurement, keep func(Measurement) bool) Errors {
	t.Helper()
	var some []Measurement
	for _, x := range ms {
		if keep(x) {
			some = append(some, x)
		}
	}
	e, err := Compare(m, some)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func model(t testing.TB, name string) *Model {
	t.Helper()
	g, err := hw.LookupGPU(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := For(g)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// abovePeak reports a measurement faster than the GPU's datasheet dense
// peak: no GEMM can run so, so such a point is a measurement artefact.
func abovePeak(m *Model, x Measurement) bool { return x.FLOPS > m.Peak(x.DType) }

// TestAgainstMeasuredTable is the acceptance line: over all the
// 375 measured shapes of the H100 and of the B200 in bf16, the modelled
// FLOP/s is within a median |error| of 10% and a 90th percentile of 20%;
// the B200's tf32 and fp8 columns are held to the same bound. Reported and
// not asserted: the H100's tf32 column (its own repeats of one workload
// disagree by more than the bound, TestTableSelfConsistency), its fp8
// column (faster than the datasheet peak, TestH100FP8ColumnExceedsPeak)
// and the MI300X (repeats disagree by a p90 of 31%).
func TestAgainstMeasuredTable(t *testing.T) {
	ms := measured(t)
	for _, c := range []struct {
		gpu      string
		dtypes   []DType
		asserted bool
	}{
		{"h100-sxm", []DType{BF16}, true},
		{"h100-sxm", []DType{TF32, FP8}, false},
		{"b200", []DType{BF16, TF32, FP8}, true},
		{"mi300x", []DType{BF16, TF32, FP8}, false},
	} {
		m := model(t, c.gpu)
		var all []Measurement
		for _, d := range c.dtypes {
			keep := func(x Measurement) bool { return x.GPU == c.gpu && x.DType == d }
			st := stats(t, m, ms, keep)
			t.Logf("%s %s: %v", c.gpu, d, st)
			if st.N != 375 {
				t.Errorf("%s %s: %d measured shapes, want 375", c.gpu, d, st.N)
			}
			for _, x := range ms {
				if keep(x) {
					all = append(all, x)
				}
			}
			if c.asserted && (st.Median > 0.10 || st.P90 > 0.20) {
				t.Errorf("%s %s: median |error| %.1f%% (want ≤ 10%%), p90 %.1f%% (want ≤ 20%%)", c.gpu, d, 100*st.Median, 100*st.P90)
			}
		}
		if c.asserted {
			st := stats(t, m, all, func(Measurement) bool { return true })
			t.Logf("%s all asserted dtypes: %v", c.gpu, st)
			if st.Median > 0.10 || st.P90 > 0.20 {
				t.Errorf("%s: median |error| %.1f%%, p90 %.1f%% over %d points", c.gpu, 100*st.Median, 100*st.P90, st.N)
			}
		}
	}
}

// TestH100FP8ColumnExceedsPeak pins why the H100's fp8 column is reported
// and not asserted: part of it is faster than the H100's dense FP8 peak
// (1,979 TFLOP/s), which no GEMM can be, and its best point is far above
// the maximum achievable FP8 matmul rate measured by ml-engineering's
// mamf-finder (1,402.6 TFLOP/s).
func TestH100FP8ColumnExceedsPeak(t *testing.T) {
	m := model(t, "h100-sxm")
	var over int
	var best float64
	for _, x := range measured(t) {
		if x.GPU == "h100-sxm" && x.DType == FP8 {
			best = max(best, x.FLOPS)
			if abovePeak(m, x) {
				over++
			}
		}
	}
	t.Logf("h100-sxm fp8: %d of 375 points above the dense peak; best %.0f TFLOP/s", over, best/1e12)
	if over == 0 || best < 1.2*m.Ceiling(FP8) {
		t.Errorf("h100-sxm fp8: %d points above peak, best %.0f TFLOP/s: the column now looks sound; assert it", over, best/1e12)
	}
}

// TestTableSelfConsistency measures the noise floor of each column: the
// table holds every (b = 2, m) shape beside (b = 1, 2m), the same multiply-
// adds on the same number of output tiles, which a batched kernel runs
// alike. How much those pairs disagree bounds how well any model of shape
// alone can do; the columns asserted in TestAgainstMeasuredTable are those
// whose pairs agree within a p90 of 15%.
func TestTableSelfConsistency(t *testing.T) {
	type key struct {
		gpu        string
		d          DType
		b, m, n, k int
	}
	rate := map[key]float64{}
	ms := measured(t)
	for _, x := range ms {
		s := x.Shape
		rate[key{x.GPU, x.DType, s.Batch, s.M, s.N, s.K}] = x.FLOPS
	}
	for _, c := range []struct {
		gpu   string
		d     DType
		sound bool
	}{
		{"h100-sxm", BF16, true}, {"h100-sxm", TF32, false}, {"h100-sxm", FP8, false},
		{"b200", BF16, true}, {"b200", TF32, true}, {"b200", FP8, true},
		{"mi300x", BF16, false}, {"mi300x", TF32, false}, {"mi300x", FP8, false},
	} {
		var diffs []float64
		for k, v := range rate {
			if k.gpu != c.gpu || k.d != c.d || k.b != 2 {
				continue
			}
			if w, ok := rate[key{k.gpu, k.d, 1, 2 * k.m, k.n, k.k}]; ok {
				diffs = append(diffs, math.Abs(v/w-1))
			}
		}
		slices.Sort(diffs)
		p90 := quantile(diffs, 0.9)
		t.Logf("%s %s: %d pairs, median %.1f%% p90 %.1f%%", c.gpu, c.d, len(diffs), 100*quantile(diffs, 0.5), 100*p90)
		if len(diffs) != 100 {
			t.Errorf("%s %s: %d pairs, want 100", c.gpu, c.d, len(diffs))
		}
		if got := p90 <= 0.15; got != c.sound {
			t.Errorf("%s %s: pair p90 %.1f%%: sound = %v, want %v", c.gpu, c.d, 100*p90, got, c.sound)
		}
	}
}
