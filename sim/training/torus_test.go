//go:build !js

package training

import (
	"testing"

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
