package pipeline

import (
	"math"
	"testing"

	"paraplay/sim/units"
)

// TestBubbleFormula runs each schedule with a closed form on ideal devices
// and compares the executed bubble fraction with BubbleFormula's.
func TestBubbleFormula(t *testing.T) {
	us := units.Microsecond
	equal := Times{F: 1200 * us, B: 1200 * us, W: 1200 * us}
	uneven := Times{F: 1200 * us, B: 1800 * us, W: 840 * us} // T_W ≤ T_F, 2T_W ≤ T_F+T_B
	for _, c := range []struct {
		name    string
		p, m, v int
		t       Times
		formula string
		want    float64 // the fraction, exactly as the formula gives it
	}{
		{"gpipe", 4, 8, 1, equal, "(p−1)/(m+p−1)", 3.0 / 11},
		{"1f1b", 4, 8, 1, uneven, "(p−1)/(m+p−1)", 3.0 / 11},
		{"1f1b", 2, 3, 1, equal, "(p−1)/(m+p−1)", 1.0 / 4},
		{"interleaved", 4, 8, 2, equal, "((p−1)/v)/(m+(p−1)/v)", 1.5 / 9.5},
		{"interleaved", 2, 4, 3, uneven, "((p−1)/v)/(m+(p−1)/v)", (1.0 / 3) / (4 + 1.0/3)},
		{"zb-h1", 4, 8, 1, equal, "b/(m(T_F+T_B+T_W)+b)", 3 * 1.2 / (8*3.6 + 3*1.2)},
		{"zb-h1", 4, 8, 1, uneven, "b/(m(T_F+T_B+T_W)+b)", 3 * 2.16 / (8*3.84 + 3*2.16)},
		{"zb-h2", 4, 8, 1, equal, "b/(m(T_F+T_B+T_W)+b)", 0},
		{"zb-h2", 4, 8, 1, uneven, "b/(m(T_F+T_B+T_W)+b)", 3 * 1.32 / (8*3.84 + 3*1.32)},
		{"local-loss", 4, 8, 1, uneven, "b/(m(T_F+T_B+T_W)+b)", 0},
	} {
		b, ok := BubbleFormula(c.name, c.p, c.m, c.v, c.t)
		if !ok || b.Formula != c.formula || math.Abs(b.Fraction-c.want) > 1e-12 {
			t.Errorf("%s p=%d m=%d v=%d: %+v, %v; want %s = %.6f", c.name, c.p, c.m, c.v, b, ok, c.formula, c.want)
		}
		s, err := New(c.name, c.p, c.m, c.v)
		if err != nil {
			t.Fatal(err)
		}
		r := Execute(s, scale(c.t, c.v))
		if math.Abs(r.BubbleFraction-b.Fraction) > 1e-9 {
			t.Errorf("%s p=%d m=%d v=%d: executed bubble %.6f, formula %.6f", c.name, c.p, c.m, c.v, r.BubbleFraction, b.Fraction)
		}
	}
	for _, name := range []string{"zb-v", "dualpipev", "stp", "pipedream-async", "toaster"} {
		if b, ok := BubbleFormula(name, 4, 8, 2, equal); ok {
			t.Errorf("%s: closed form %+v; want none", name, b)
		}
	}
}

// TestLocalLossIteration compares the closed-form makespan with the
// executed one.
func TestLocalLossIteration(t *testing.T) {
	ms := units.Millisecond
	for _, c := range []struct {
		p, m int
		t    Times
		want units.Time
	}{
		{4, 8, Times{F: ms, B: ms, W: ms}, 27 * ms},
		{2, 3, Times{F: 2 * ms, B: 3 * ms, W: ms}, 20 * ms},
		{1, 1, Times{F: ms, B: ms, W: ms}, 3 * ms},
	} {
		got := LocalLossIteration(c.p, c.m, c.t)
		if got != c.want {
			t.Errorf("LocalLossIteration(%d, %d, %+v) = %v, want %v", c.p, c.m, c.t, got, c.want)
		}
		if r := Execute(LocalLoss(c.p, c.m), c.t); r.Makespan != got {
			t.Errorf("local-loss p=%d m=%d: executed makespan %v, formula %v", c.p, c.m, r.Makespan, got)
		}
	}
}
