package balance

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// optimum is the smallest heaviest bin over every assignment of weights to
// m bins, by exhaustive search (small n only).
func optimum(weights []float64, m int) float64 {
	best := math.Inf(1)
	load := make([]float64, m)
	var place func(i int)
	place = func(i int) {
		if i == len(weights) {
			best = min(best, slices.Max(load))
			return
		}
		for b := range m {
			load[b] += weights[i]
			if load[b] < best {
				place(i + 1)
			}
			load[b] -= weights[i]
			if load[b] == 0 { // bins still empty are alike: try one
				break
			}
		}
	}
	place(0)
	return best
}

func heaviest(weights []float64, assign []int, m int) float64 {
	return slices.Max(Loads(weights, assign, m))
}

// TestLPTWithinGrahamsBound checks LPT against the exhaustive optimum on
// 2,000 random instances of up to 10 items on 2 to 4 bins: never above
// 4/3 − 1/(3m) times the optimum.
func TestLPTWithinGrahamsBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	worst := 1.0
	for trial := range 2000 {
		m := 2 + trial%3
		n := 1 + rng.IntN(10)
		w := make([]float64, n)
		for i := range w {
			w[i] = float64(1 + rng.IntN(100))
		}
		got, opt := heaviest(w, LPT(w, m), m), optimum(w, m)
		if got > Bound(m)*opt+1e-9 {
			t.Fatalf("weights %v on %d bins: LPT's heaviest bin %g > (4/3 − 1/(3m))·%g = %g", w, m, got, opt, Bound(m)*opt)
		}
		worst = max(worst, got/opt)
	}
	t.Logf("worst LPT/optimum over the instances: %.4f", worst)
}

// TestLPTGrahamsTightInstance is Graham's instance that meets the bound:
// 2m+1 items 2m−1, 2m−1, 2m−2, 2m−2, …, m+1, m+1, m, m, m, whose optimum is
// 3m and LPT's heaviest bin 4m−1.
func TestLPTGrahamsTightInstance(t *testing.T) {
	for _, m := range []int{2, 3, 4, 5} {
		var w []float64
		for v := 2*m - 1; v > m; v-- {
			w = append(w, float64(v), float64(v))
		}
		w = append(w, float64(m), float64(m), float64(m))
		got := heaviest(w, LPT(w, m), m)
		if got != float64(4*m-1) {
			t.Errorf("m = %d: LPT's heaviest bin %g, want %d", m, got, 4*m-1)
		}
		if opt := optimum(w, m); opt != float64(3*m) {
			t.Errorf("m = %d: optimum %g, want %d", m, opt, 3*m)
		}
		if r := got / float64(3*m); math.Abs(r-Bound(m)) > 1e-12 {
			t.Errorf("m = %d: ratio %g, want the bound %g", m, r, Bound(m))
		}
	}
}

// TestLPTBeatsRandomAssignment compares LPT with dealing the same items to
// bins at random, on lognormal weights like a batch of variable-length
// sequences (a heavy right tail): LPT's heaviest bin is never above the
// bound times the random one's (the random one is no better than the
// optimum), and on average it is far closer to the optimum's lower bound,
// the larger of the mean load and the heaviest item.
func TestLPTBeatsRandomAssignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var lpt, random float64
	const trials = 500
	for range trials {
		m, n := 8, 64
		w := make([]float64, n)
		var sum float64
		for i := range w {
			w[i] = math.Exp(rng.NormFloat64())
			sum += w[i]
		}
		floor := max(sum/float64(m), slices.Max(w))
		r := make([]int, n)
		for i := range r {
			r[i] = rng.IntN(m)
		}
		a, b := heaviest(w, LPT(w, m), m), heaviest(w, r, m)
		if a > Bound(m)*b+1e-9 {
			t.Fatalf("LPT %g > bound × random %g", a, b)
		}
		lpt += a / floor
		random += b / floor
	}
	lpt, random = lpt/trials, random/trials
	t.Logf("heaviest bin over the optimum's lower bound, averaged: LPT %.3f, random %.3f", lpt, random)
	if lpt > 1.05 || random < 1.3 {
		t.Errorf("LPT %.3f, random %.3f: want LPT within 5%% of the lower bound and random well above", lpt, random)
	}
}

func TestLPTDeterministicTies(t *testing.T) {
	got := LPT([]float64{1, 1, 1, 1, 2}, 2)
	// 2 → bin 0; 1 → bin 1, 1 → bin 1 (load 1 < 2); then bins tie at 2:
	// the lower index, bin 0, then bin 1.
	want := []int{1, 1, 0, 1, 0}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := LPT(nil, 3); len(got) != 0 {
		t.Errorf("no items: got %v", got)
	}
}

func FuzzLPT(f *testing.F) {
	f.Add([]byte{3, 1, 4, 1, 5, 9, 2, 6}, 3)
	f.Fuzz(func(t *testing.T, data []byte, m int) {
		m = 1 + abs(m)%16
		w := make([]float64, len(data))
		for i, b := range data {
			w[i] = float64(b)
		}
		a := LPT(w, m)
		for _, b := range a {
			if b < 0 || b >= m {
				t.Fatalf("bin %d of %d", b, m)
			}
		}
		// List scheduling's bound (Graham 1966): heaviest ≤ mean + (1 − 1/m)·max.
		if len(w) > 0 {
			var sum float64
			for _, x := range w {
				sum += x
			}
			if h := heaviest(w, a, m); h > sum/float64(m)+(1-1/float64(m))*slices.Max(w)+1e-9 {
				t.Fatalf("heaviest %g above mean + (1−1/m)·max", h)
			}
		}
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
