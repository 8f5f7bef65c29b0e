package training

import (
	"math"
	"slices"
	"testing"

	"paraplay/sim/balance"
)

// TestBalancedAssignmentKeepsTheBatch: a balanced run trains on exactly
// the sequences the random run draws (the same tokens in every step and
// the same model FLOPs in all), with a smaller replica imbalance on
// average and a shorter run. (LPT is not better than every random deal:
// only on average, and never worse than 4/3 − 1/(3m) times it.)
func TestBalancedAssignmentKeepsTheBatch(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		s := varlen()
		s.Straggler.CV = 0
		s.Seed = seed
		random := mustSimulate(t, s)
		s.Data.Assign = "balanced"
		balanced := mustSimulate(t, s)
		if len(random.Iterations) != len(balanced.Iterations) {
			t.Fatalf("seed %d: %d and %d iterations", seed, len(random.Iterations), len(balanced.Iterations))
		}
		var ri, bi float64
		for i, r := range random.Iterations {
			b := balanced.Iterations[i]
			if r.Tokens != b.Tokens {
				t.Errorf("seed %d step %d: tokens %v random, %v balanced", seed, i, r.Tokens, b.Tokens)
			}
			ri += r.Imbalance
			bi += b.Imbalance
		}
		if bi >= ri {
			t.Errorf("seed %d: mean imbalance %.3f balanced, %.3f random", seed, bi/8, ri/8)
		}
		if d := math.Abs(random.Training.ModelFLOPs/balanced.Training.ModelFLOPs - 1); d > 1e-12 {
			t.Errorf("seed %d: model FLOPs differ by %.3g", seed, d)
		}
		if balanced.End > random.End {
			t.Errorf("seed %d: balanced run %v > random %v", seed, balanced.End, random.End)
		}
		t.Logf("seed %d: run %v random, %v balanced; mean imbalance %.3f, %.3f", seed, random.End, balanced.End, ri/8, bi/8)
	}
}

// TestBalancedLoadsAreLPTs: in pure data parallelism each replica computes
// the sum of its ops, so under data.assign: balanced the replicas' compute
// times are the loads that LPT gives the step's buckets by predicted cost
// (its compute and blocking communication, none here), computed apart
// from the simulator; and the heaviest stays within list scheduling's
// bound, mean + (1 − 1/R)·heaviest bucket (Graham 1966), which LPT meets.
func TestBalancedLoadsAreLPTs(t *testing.T) {
	s := varlen()
	s.Straggler.CV, s.Iterations = 0, 1
	s.Parallel.Microbatches = 8
	s.Data.Assign = "balanced"
	it := &iterState{lengths: seqLengths(s, 0, s.Parallel.DP), live: []bool{true, true, true, true}}
	tr, _, err := play(s, it, jitterSource{})
	if err != nil {
		t.Fatal(err)
	}
	var lengths []int
	for _, ls := range it.lengths {
		lengths = append(lengths, ls...)
	}
	cost := make([]float64, len(lengths))
	for i, l := range lengths {
		for k := range tr.layers {
			f := tr.atLength(k, l)
			cost[i] += float64(f[0] + f[1] + f[2])
		}
	}
	loads := balance.Loads(cost, balance.LPT(cost, 4), 4)
	for r, w := range tr.work {
		if math.Abs(float64(w)-loads[r]) > float64(3*len(lengths)) { // ns of rounding per op
			t.Errorf("replica %d: computes %v, LPT's load %.0f ns", r, w, loads[r])
		}
	}
	var sum float64
	for _, c := range cost {
		sum += c
	}
	if h, bound := slices.Max(loads), sum/4+0.75*slices.Max(cost); h > bound {
		t.Errorf("heaviest replica %.0f ns > mean + (1 − 1/R)·max = %.0f", h, bound)
	}
	t.Logf("replica compute %v; LPT loads %.0f", tr.work, loads)
}
