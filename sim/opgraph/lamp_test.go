//go:build !js

package opgraph

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/units"
)

// unetRun is a LAMP run of the U-Net of side³, width c and L levels on n
// GPUs, m microbatches of one sample.
func unetRun(t *testing.T, side, c, L, n, m int) (Graph, Run) {
	t.Helper()
	g, err := UNet3D(side, c, L)
	if err != nil {
		t.Fatal(err)
	}
	return g, Run{GPU: "h100-sxm", GPUs: n, Batch: m, Split: Model, Microbatches: m}
}

// TestLAMPClosedForm holds LAMP's pipelined iteration on free links to
// GPipe's flow shop of identical microbatches, 3·(Σ_s f_s + (m − 1)·max_s
// f_s), GPipe's 3f·(m + n − 1) when the stages are equal.
func TestLAMPClosedForm(t *testing.T) {
	gpu, _ := hw.LookupGPU("h100-sxm")
	for _, c := range []struct{ side, c, L, n, m int }{{64, 8, 3, 2, 4}, {64, 8, 3, 4, 8}, {128, 16, 4, 8, 8}, {32, 4, 2, 3, 1}, {64, 16, 4, 1, 2}} {
		g, r := unetRun(t, c.side, c.c, c.L, c.n, c.m)
		base := hostScenario(r)
		base.Cluster.Network = "ideal"
		tl, err := simulate(g, r, base)
		if err != nil {
			t.Fatal(err)
		}
		ends := lampStages(g, c.n, 1, c.m, gpu)
		var sum, most units.Time
		for i, e := range ends {
			var f units.Time
			for _, o := range g.Ops[stageStart(ends, i) : e+1] {
				f += forwardTime(o, 1, gpu)
			}
			sum, most = sum+f, max(most, f)
		}
		want := 3 * (sum + units.Time(c.m-1)*most)
		// Each message on free links takes at most a nanosecond; a
		// critical chain crosses at most 2·n·m of them.
		if got := tl.End; math.Abs(float64(got-want)) > float64(2*c.n*c.m) {
			t.Errorf("%+v: iteration %v, want 3(Σf + (m−1)max f) = %v", c, got, want)
		}
	}
}

// TestLAMPMemory holds a stage's memory to M_s = 16·P_s + m·(its outputs
// + the tensors it receives) in closed form: cut 2 ways at the bottom of
// the U (after the analysis path), the second stage receives the bottom
// level's output and every skip, b·2·(c·2^L·V/8^(L−1) + Σ_{l<L−1}
// c·2^(l+1)·V/8^l) bytes a microbatch, and holds it m times.
func TestLAMPMemory(t *testing.T) {
	side, c, L, m := 64, 8, 4, 3
	g, _ := unetRun(t, side, c, L, 2, m)
	cut := 0
	for i, o := range g.Ops {
		if o.Kind == UpConv3D {
			cut = i - 1
			break
		}
	}
	ends := []int{cut, len(g.Ops) - 1}
	v := float64(side * side * side)
	want := float64(c<<L) * v / math.Pow(8, float64(L-1))
	for l := range L - 1 {
		want += float64(c<<(l+1)) * v / math.Pow(8, float64(l))
	}
	want *= bytesPerElement
	if got := crossBytes(g, ends, 1)[0][1]; math.Abs(float64(got)-want) > 1 {
		t.Errorf("bytes across the bottom cut: %v, want %g", got, want)
	}
	var p1 int64
	var out1 units.Bytes
	for _, o := range g.Ops[cut+1:] {
		p1 += o.Params()
		out1 += outBytes(o, 1)
	}
	if got, want := stageMemory(g, cut+1, len(g.Ops)-1, 1, m), units.Bytes(16*p1)+units.Bytes(m)*(out1+units.Bytes(want)); got != want {
		t.Errorf("decoder stage memory %v, want %v", got, want)
	}
	// The whole graph on one GPU: 16·P + m·b·2·Σ elements, the elements in
	// closed form over the levels.
	var elems float64
	for l := range L {
		vl, w := v/math.Pow(8, float64(l)), float64(c<<l)
		if l > 0 {
			elems += w * vl // the pool's output, the level above's width
		}
		elems += 3*w*vl + 3*2*w*vl
		if l < L-1 {
			elems += (4*w + 6*w + 6*2*w) * vl // upconv, concat, two convs with norms and ReLUs
		}
	}
	elems += 3 * v
	if got, want := float64(stageMemory(g, 0, len(g.Ops)-1, 2, m)), 16*float64(g.Params())+float64(m)*2*bytesPerElement*elems; math.Abs(got-want) > 1 {
		t.Errorf("one-stage memory %g, want %g", got, want)
	}
}

// TestLAMPFit: a whole 256³ image, two samples, does not fit one H100
// (the run is refused, naming graph.volume) and fits four as LAMP's stages,
// every stage within the GPU's memory.
func TestLAMPFit(t *testing.T) {
	gpu, _ := hw.LookupGPU("h100-sxm")
	g, r := unetRun(t, 256, 32, 4, 1, 2)
	if _, err := r.check(g); err == nil || !strings.HasPrefix(err.Error(), "graph.volume: is 256; stage 0 of 1 needs") {
		t.Errorf("on one GPU: %v, want graph.volume refused", err)
	}
	r.GPUs = 4
	if _, err := r.check(g); err != nil {
		t.Fatalf("on four GPUs: %v", err)
	}
	ends := lampStages(g, 4, 1, 2, gpu)
	for i, e := range ends {
		if m := stageMemory(g, stageStart(ends, i), e, 1, 2); m > gpu.HBM {
			t.Errorf("stage %d: %v over the HBM", i, m)
		}
	}
	tl, err := Simulate(g, r)
	if err != nil {
		t.Fatal(err)
	}
	// Every pair of stages with a tensor between them: one message each way
	// a microbatch; on NVLink the iteration is longer than on free links.
	bytes := crossBytes(g, ends, 1)
	pairs := 0
	for s := range bytes {
		for u := s + 1; u < len(bytes); u++ {
			if bytes[s][u] > 0 {
				pairs++
			}
		}
	}
	if got, want := tl.Transfers.Len(), 2*2*pairs; got != want {
		t.Errorf("%d transfers, want 2 a microbatch for each of %d stage pairs = %d", got, pairs, want)
	}
	t.Logf("256³ on 4 H100s: stages end at %v, iteration %v, %d stage pairs exchange tensors", ends, tl.End, pairs)
}

// TestLAMPPartition: the dynamic programme's slowest stage is the least
// over every cut of a small graph into 3 stages (brute force).
func TestLAMPPartition(t *testing.T) {
	cost := []float64{5, 1, 7, 3, 3, 8, 2, 2, 6, 1}
	sum := func(lo, hi int) float64 {
		s := 0.0
		for _, c := range cost[lo : hi+1] {
			s += c
		}
		return s
	}
	ok := func(lo, hi int) bool { return hi-lo < 5 }
	ends := partition(len(cost), 3, sum, ok)
	got := 0.0
	for i, e := range ends {
		got = max(got, sum(stageStart(ends, i), e))
	}
	best := math.Inf(1)
	for a := 0; a < len(cost); a++ {
		for b := a + 1; b < len(cost)-1; b++ {
			if ok(0, a) && ok(a+1, b) && ok(b+1, len(cost)-1) {
				best = min(best, max(sum(0, a), sum(a+1, b), sum(b+1, len(cost)-1)))
			}
		}
	}
	if got != best {
		t.Errorf("partition %v: slowest stage %g, brute force %g", ends, got, best)
	}
}
