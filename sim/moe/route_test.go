package moe

import (
	"math"
	"slices"
	"strings"
	"testing"
)

var v3 = Layout{Experts: 256, TopK: 8, EP: 64, Groups: 8, TopGroups: 4, PerNode: 8}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// TestBalanced: every GPU computes its tokens × top_k copies, nothing is
// dropped, with or without capacity and group limits.
func TestBalanced(t *testing.T) {
	for _, r := range []Routing{{}, {Skew: Balanced, CapacityFactor: 1}, {Redundant: 64}} {
		l := Route(v3, r, 7, 0, 3, 4096)
		for j, load := range l.Load {
			if math.Abs(load-4096*8) > 1e-6 {
				t.Fatalf("%+v: GPU %d computes %v copies, want %v", r, j, load, 4096*8)
			}
		}
		if l.Dropped != 0 || l.Copies != 64*4096*8 {
			t.Errorf("%+v: %v of %v copies dropped, want 0 of %v", r, l.Dropped, l.Copies, 64*4096*8)
		}
	}
}

// TestSeeded: the same seed, step and layer route the same way; another
// layer or step, another way.
func TestSeeded(t *testing.T) {
	r := Routing{Skew: Lognormal, CV: 0.5}
	a, b := Popularity(v3, r, 1, 2, 3), Popularity(v3, r, 1, 2, 3)
	if !slices.Equal(a, b) {
		t.Fatal("same seed, step and layer: different shares")
	}
	if slices.Equal(a, Popularity(v3, r, 1, 2, 4)) || slices.Equal(a, Popularity(v3, r, 1, 3, 3)) || slices.Equal(a, Popularity(v3, r, 2, 2, 3)) {
		t.Error("another layer, step or seed routed the same way")
	}
	if s := sum(a); math.Abs(s-1) > 1e-12 {
		t.Errorf("shares sum to %v, want 1", s)
	}
}

// TestDroppedMatchesExpectation: with capacity factor 1 and lognormal
// weights of cv 0.5 (and 1), the dropped fraction averaged over seeds is
// within 2 points of E[(X − 1)⁺] (DroppedLognormal), for 256 experts with
// and without DeepSeek-V3's group limit off.
func TestDroppedMatchesExpectation(t *testing.T) {
	lay := Layout{Experts: 256, TopK: 8, EP: 64}
	for _, cv := range []float64{0.5, 1} {
		r := Routing{Skew: Lognormal, CV: cv, CapacityFactor: 1}
		var got float64
		const draws = 200
		for seed := range uint64(draws) {
			l := Route(lay, r, seed, 0, 0, 4096)
			got += l.Dropped / l.Copies / draws
		}
		want := DroppedLognormal(cv, 1)
		if math.Abs(got-want) > 0.02 {
			t.Errorf("cv %v: dropped %.4f over %d seeds, want E[(X−1)⁺] = %.4f ± 0.02", cv, got, draws, want)
		}
		t.Logf("cv %v: dropped %.4f, expected %.4f", cv, got, want)
	}
}

// TestDroppedLognormalIntegral checks the closed form against a direct
// integral of (x − cf)⁺ over the lognormal density.
func TestDroppedLognormalIntegral(t *testing.T) {
	for _, c := range []struct{ cv, cf float64 }{{0.5, 1}, {0.5, 1.25}, {1, 1}, {0.2, 0.8}} {
		sigma := math.Sqrt(math.Log1p(c.cv * c.cv))
		mu := -sigma * sigma / 2
		var integral float64
		const dz = 1e-4
		for z := -10.0; z < 10; z += dz {
			x := math.Exp(mu + sigma*z)
			integral += max(0, x-c.cf) * math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) * dz
		}
		if got := DroppedLognormal(c.cv, c.cf); math.Abs(got-integral) > 1e-4 {
			t.Errorf("cv %v cf %v: closed form %.5f, integral %.5f", c.cv, c.cf, got, integral)
		}
	}
	if got := DroppedLognormal(0, 1); got != 0 {
		t.Errorf("no skew at cf 1 drops %v, want 0", got)
	}
}

// TestHotExperts: the hottest expert of every layer is expert 0, on GPU 0.
func TestHotExperts(t *testing.T) {
	r := Routing{Skew: Zipf, S: 1, HotExperts: 2}
	for layer := range 5 {
		p := Popularity(Layout{Experts: 64, TopK: 4, EP: 8}, r, 3, 0, layer)
		if i := slices.Index(p, slices.Max(p)); i != 0 || p[1] < p[2] {
			t.Errorf("layer %d: hottest expert %d (shares %.3f %.3f %.3f), want 0 then 1", layer, i, p[0], p[1], p[2])
		}
	}
}

// TestRedundantSplitsTheHotExpert: EPLB's replicas lower the busiest GPU
// and keep every copy.
func TestRedundantSplitsTheHotExpert(t *testing.T) {
	lay := Layout{Experts: 64, TopK: 4, EP: 8}
	r := Routing{Skew: Zipf, S: 1.2, HotExperts: 1}
	plain := Route(lay, r, 1, 0, 0, 1000)
	r.Redundant = 8
	eplb := Route(lay, r, 1, 0, 0, 1000)
	if math.Abs(sum(plain.Load)-sum(eplb.Load)) > 1e-6 {
		t.Errorf("replicas lost copies: %v vs %v", sum(eplb.Load), sum(plain.Load))
	}
	if slices.Max(eplb.Load) >= 0.8*slices.Max(plain.Load) {
		t.Errorf("busiest GPU %.0f copies with 8 replicas, %.0f without: want a clear drop", slices.Max(eplb.Load), slices.Max(plain.Load))
	}
	for j, s := range eplb.Slots {
		if len(s) != 9 {
			t.Errorf("GPU %d hosts %d replicas, want 8 + 1", j, len(s))
		}
	}
}

// TestGroupLimited: a group limit leaves balanced routing alone,
// concentrates a skewed one on its hot groups, and keeps a token on at most
// top_groups nodes.
func TestGroupLimited(t *testing.T) {
	open := v3
	open.Groups, open.TopGroups = 0, 0
	bal := Route(v3, Routing{}, 1, 0, 0, 4096)
	if math.Abs(slices.Max(bal.Share)*256-1) > 1e-9 {
		t.Errorf("balanced group-limited shares: max %v, want 1/256", slices.Max(bal.Share))
	}
	if bal.NodesPerToken > 4+1e-9 || bal.NodesPerToken < 3.9 {
		t.Errorf("group-limited: %.2f nodes per token, want 4", bal.NodesPerToken)
	}
	if n := Route(open, Routing{}, 1, 0, 0, 4096).NodesPerToken; n < 5 || n > 6 {
		t.Errorf("top-8 of 256 on 8 nodes: %.2f nodes per token, want 8·(1 − (7/8)⁸) ≈ 5.3", n)
	}
	r := Routing{Skew: Lognormal, CV: 1}
	lim, free := Route(v3, r, 5, 0, 0, 4096), Route(open, r, 5, 0, 0, 4096)
	if slices.Max(lim.Load) <= slices.Max(free.Load) {
		t.Errorf("group limit: busiest GPU %.0f copies, unlimited %.0f: want the limit to concentrate them", slices.Max(lim.Load), slices.Max(free.Load))
	}
}

func TestValidate(t *testing.T) {
	lay := Layout{Experts: 8, TopK: 2, EP: 4}
	for _, tc := range []struct {
		r    Routing
		want string
	}{
		{Routing{Skew: "pareto"}, "model.moe.routing.skew"},
		{Routing{Skew: Lognormal, CV: -1}, "model.moe.routing.cv"},
		{Routing{Histogram: []float64{1, 2}}, "model.moe.routing.histogram: has 2 loads"},
		{Routing{CapacityFactor: -1}, "model.moe.capacity_factor"},
		{Routing{Redundant: 2}, "model.moe.redundant: is 2; allowed a multiple of parallel.ep (4)"},
		{Routing{HotExperts: 9}, "model.moe.routing.hot_experts"},
	} {
		err := tc.r.Validate(lay)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want an error containing %q", tc.r, err, tc.want)
		}
	}
	if err := (Routing{Skew: Zipf, S: 1.1, CapacityFactor: 1.25, Redundant: 4}).Validate(lay); err != nil {
		t.Errorf("a good routing: %v", err)
	}
}

// TestShareCap: no expert receives more than 1/top_k of the copies, however
// skewed the router.
func TestShareCap(t *testing.T) {
	p := Popularity(Layout{Experts: 256, TopK: 8, EP: 16}, Routing{Skew: Zipf, S: 2}, 1, 0, 0)
	if m := slices.Max(p); m > 1.0/8+1e-12 {
		t.Errorf("hottest expert %.4f of the copies, want at most 1/8", m)
	}
	if s := sum(p); math.Abs(s-1) > 1e-9 {
		t.Errorf("shares sum to %v", s)
	}
}
