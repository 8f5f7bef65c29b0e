//go:build !js

package training

import (
	"math"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/topo"
)

// TestTorusBox: the chips a mesh axis takes are a box of the torus, its
// axes rings only where they span a whole wrapping axis; any other set of
// chips is no box (and runs as a ring over chip ids).
func TestTorusBox(t *testing.T) {
	cube := &topo.Torus{Dims: [3]int{4, 4, 4}, Wrap: [3]bool{true, true, true}}
	line := &topo.Torus{Dims: [3]int{4, 4, 1}}
	ids := func(from, step, n int) []int {
		var out []int
		for i := 0; i < n; i++ {
			out = append(out, from+i*step)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		t     *topo.Torus
		gpus  []int
		ok    bool
		dims  [3]int
		wrap  [3]bool
		first int // order[0]: the index in gpus of the box's first chip
	}{
		{"x ring", cube, ids(0, 1, 4), true, [3]int{4, 1, 1}, [3]bool{true}, 0},
		{"yz rings at x=1", cube, ids(1, 4, 16), true, [3]int{1, 4, 4}, [3]bool{false, true, true}, 0},
		{"half of x: a line", cube, ids(0, 1, 2), true, [3]int{2, 1, 1}, [3]bool{}, 0},
		{"the cube", cube, ids(0, 1, 64), true, [3]int{4, 4, 4}, [3]bool{true, true, true}, 0},
		{"reversed", cube, []int{3, 2, 1, 0}, true, [3]int{4, 1, 1}, [3]bool{true}, 3},
		{"no wrap on a 4x4", line, ids(0, 4, 4), true, [3]int{1, 4, 1}, [3]bool{}, 0},
		{"stride 8: y 0 and 2", cube, ids(0, 8, 8), false, [3]int{}, [3]bool{}, 0},
		{"a hole", cube, []int{0, 1, 3}, false, [3]int{}, [3]bool{}, 0},
		{"one chip", cube, []int{5}, false, [3]int{}, [3]bool{}, 0},
		{"off a torus", nil, ids(0, 1, 4), false, [3]int{}, [3]bool{}, 0},
	} {
		g, order, ok := torusBox(c.t, c.gpus)
		if ok != c.ok {
			t.Errorf("%s: box %v; want %v", c.name, ok, c.ok)
			continue
		}
		if ok && (g.Dims != c.dims || g.Wrap != c.wrap || order[0] != c.first) {
			t.Errorf("%s: dims %v wrap %v first %d; want %v %v %d", c.name, g.Dims, g.Wrap, order[0], c.dims, c.wrap, c.first)
		}
	}
}

// TestSlicesBox: a group that takes the same box in every slice is the
// hierarchical all-reduce's grid, its ranks slice-major; a group that takes
// different boxes, or misses a slice, is not.
func TestSlicesBox(t *testing.T) {
	two := &topo.Torus{Dims: [3]int{4, 4, 4}, Wrap: [3]bool{true, true, true}, Slices: 2}
	for _, c := range []struct {
		name string
		gpus []int
		ok   bool
	}{
		{"x ring in both slices", []int{0, 1, 2, 3, 64, 65, 66, 67}, true},
		{"slice-major, any order", []int{67, 3, 66, 2, 65, 1, 64, 0}, true},
		{"different boxes", []int{0, 1, 2, 3, 68, 69, 70, 71}, false},
		{"one slice", []int{0, 1, 2, 3, 4, 5, 6, 7}, false},
		{"one chip a slice", []int{0, 64}, false},
	} {
		g, order, m, ok := slicesBox(two, c.gpus)
		if ok != c.ok {
			t.Errorf("%s: ok %v; want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if m != 2 || g.Dims != [3]int{4, 1, 1} || len(order) != 8 {
			t.Errorf("%s: %d slices of %v, %d ranks; want 2 of [4 1 1], 8", c.name, m, g.Dims, len(order))
		}
		for r, i := range order {
			if want := r/4*64 + r%4; c.gpus[i] != want {
				t.Errorf("%s: rank %d is chip %d; want %d", c.name, r, c.gpus[i], want)
			}
		}
	}
}

// TestSlicesFidelitiesAgree: a training step whose FSDP or ZeRO axis spans
// two slices (its reduce-scatters and gathers hierarchical: torus, then
// DCN) takes the same time within 2%, and so do its data-parallel
// collectives together, whether each is one span of the closed form
// (analytic) or every message (detailed).
func TestSlicesFidelitiesAgree(t *testing.T) {
	for _, mesh := range []string{"{data: 2, fsdp: 16, model: 4}", "{data: 32, model: 4}, zero: 1", "{data: 2, fsdp: 16, seq: 4}"} {
		var got, comm [2]float64
		for i, fid := range []string{"analytic", "detailed"} {
			s, err := scenario.Parse([]byte("strategy: training\nfidelity: " + fid +
				"\nmodel: {layers: 2, hidden: 512, heads: 8, ffn_hidden: 2048, vocab: 1024, seq_len: 512}" +
				"\ncluster: {gpu: tpu-v5p, topology: 4x4x4, slices: 2}\nparallel: {microbatches: 2, micro_batch_size: 1, mesh: " + mesh + "}"))
			if err != nil {
				t.Fatal(err)
			}
			tl, err := Simulate(s)
			if err != nil {
				t.Fatalf("%s %s: %v", mesh, fid, err)
			}
			got[i] = tl.Summarize().Iteration.Seconds()
			for _, c := range tl.Collectives {
				if c.Purpose == "dp" || c.Purpose == "zero" {
					comm[i] += (c.End - c.Start).Seconds()
				}
			}
		}
		for _, c := range []struct {
			what string
			v    [2]float64
		}{{"step", got}, {"data-parallel collectives", comm}} {
			if e := c.v[1]/c.v[0] - 1; c.v[0] == 0 || math.Abs(e) > 0.02 {
				t.Errorf("%s: %s detailed %.4g s, analytic %.4g s (%+.2f%%); want within 2%%", mesh, c.what, c.v[1], c.v[0], 100*e)
			} else {
				t.Logf("%s: %s detailed %.4g s, analytic %.4g s (%+.3f%%)", mesh, c.what, c.v[1], c.v[0], 100*e)
			}
		}
	}
}
