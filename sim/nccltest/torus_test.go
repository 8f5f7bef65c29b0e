//go:build !js

package nccltest

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestTorusClosedForms runs the torus all-gather, reduce-scatter and
// all-reduce over one, two and three axes, with and without wraparound,
// every message on the ICI links of a torus (detailed fidelity), and
// holds each to collective.TorusTime within 0.5%.
func TestTorusClosedForms(t *testing.T) {
	const alpha, bw = units.Microsecond, 45 * units.GBps
	type shape struct {
		dims [3]int
		axes [3]bool
	}
	shapes := []shape{
		{[3]int{3, 1, 1}, [3]bool{}}, {[3]int{4, 1, 1}, [3]bool{}}, {[3]int{5, 1, 1}, [3]bool{}}, {[3]int{8, 1, 1}, [3]bool{}}, {[3]int{16, 1, 1}, [3]bool{}},
		{[3]int{4, 4, 1}, [3]bool{true}}, {[3]int{8, 4, 1}, [3]bool{false, true}},
		{[3]int{3, 3, 1}, [3]bool{}}, {[3]int{4, 4, 1}, [3]bool{}}, {[3]int{8, 8, 1}, [3]bool{}}, {[3]int{4, 8, 1}, [3]bool{}},
		{[3]int{3, 3, 3}, [3]bool{}}, {[3]int{4, 4, 4}, [3]bool{}}, {[3]int{4, 4, 8}, [3]bool{}}, {[3]int{4, 4, 4}, [3]bool{false, true, true}},
	}
	for _, sh := range shapes {
		for _, wrap := range []bool{true, false} {
			var w [3]bool
			for a, n := range sh.dims {
				w[a] = wrap && n >= 3
			}
			tor := topo.Torus{Dims: sh.dims, Wrap: w, Host: [3]int{1, 1, 1}, Slices: 1}
			tp, err := topo.BuildTorus(tor, topo.TorusPorts{ICI: topo.Port{Bandwidth: bw, Latency: alpha, Kind: "ici"}})
			if err != nil {
				t.Fatal(err)
			}
			g := collective.Grid{Dims: sh.dims, Wrap: w, Axes: sh.axes}
			for _, op := range []collective.Op{collective.OpAllGather, collective.OpReduceScatter, collective.OpAllReduce} {
				for _, s := range []units.Bytes{8 * units.MiB, 12345} {
					name := fmt.Sprintf("%v/axes%v/wrap=%v/%s/%d", sh.dims, sh.axes, wrap, op, s)
					sch, err := collective.TorusSchedule(op, g, s)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					tl, err := Collective(tp, sch, taskgraph.Identity(tor.Chips()), name)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got := tl.Collectives[0].End - tl.Collectives[0].Start
					want := collective.TorusTime(string(op), g, s, alpha, bw)
					if e := float64(got)/1e9/want - 1; math.Abs(e) > 0.005 {
						t.Errorf("%s: simulated %v, closed form %.4gµs (%+.2f%%)", name, got, want*1e6, 100*e)
					}
				}
			}
		}
	}
}

// TestTorusScenarios runs the TPU scenarios under testdata as paraplay run
// does and holds each to its closed form (0.5%) and to the scaling book's
// figure for it (Austin et al. 2025, Part 3 'Sharded Matrices', read in
// jax-ml/scaling-book sharding.md): Pop Quiz 2's ≈560 µs estimate, and
// Question 2's ≈46 µs for AllGather_XY (the book drops (N−1)/N and α).
// Without wraparound, the 16x16 all-reduce pays about twice the ring's.
func TestTorusScenarios(t *testing.T) {
	for _, c := range []struct {
		file string
		book float64 // seconds; 0: none
		tol  float64
	}{
		{"tpu-v5e-8x4-allgather-y.yaml", 560e-6, 0.02},
		{"tpu-v4-4x4x4-allgather-xy.yaml", 46e-6, 0.05},
		{"tpu-v5e-16x16-allreduce-nowrap.yaml", 0, 0},
	} {
		s := parseFile(t, "testdata/"+c.file)
		got := torusRun(t, s)
		want, err := TorusTime(s, mustTopology(t, s))
		if err != nil {
			t.Fatal(err)
		}
		if e := got/want - 1; math.Abs(e) > 0.005 {
			t.Errorf("%s: simulated %.4g µs, closed form %.4g µs", c.file, got*1e6, want*1e6)
		}
		if c.book > 0 && math.Abs(got/c.book-1) > c.tol {
			t.Errorf("%s: simulated %.4g µs, the book's %.4g µs (±%.0f%%)", c.file, got*1e6, c.book*1e6, 100*c.tol)
		}
		if c.book == 0 {
			s.Cluster.Wraparound = "auto"
			ring := torusRun(t, s)
			if r := got / ring; r < 1.9 || r > 2.05 {
				t.Errorf("%s: %.4g µs without wraparound, %.4g µs with: ×%.3g; want about 2", c.file, got*1e6, ring*1e6, r)
			}
		}
	}
}

func parseFile(t *testing.T, path string) scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

func mustTopology(t *testing.T, s scenario.Scenario) *topo.Topology {
	t.Helper()
	tp, err := Topology(s)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// torusRun simulates s and returns its collective's time in seconds.
func torusRun(t *testing.T, s scenario.Scenario) float64 {
	t.Helper()
	tl, err := Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	c := tl.Collectives[0]
	if c.Algorithm != AlgorithmTorus {
		t.Errorf("ran %s; want torus", c.Algorithm)
	}
	return (c.End - c.Start).Seconds()
}

// TestTorusScenarioErrors: a torus collective off a slice, across slices,
// or over axes the slice lacks is refused naming the key.
func TestTorusScenarioErrors(t *testing.T) {
	for _, c := range []struct{ yaml, key, want string }{
		{"gpus: 8\ncollective: {algorithm: torus, op: all_gather}", "collective.algorithm", "TPU slice"},
		{"cluster: {gpu: tpu-v5e, topology: 4x4}\ncollective: {algorithm: torus, op: all_gather, axes: xz}", "collective.axes", "1 chip long"},
		{"cluster: {gpu: tpu-v5e, topology: 4x4}\ncollective: {algorithm: torus, op: all_gather, axes: xx}", "collective.axes", "twice"},
		{"cluster: {gpu: tpu-v5e, topology: 4x4}\ncollective: {algorithm: ring, op: all_gather, axes: x}", "collective.axes", "torus"},
		{"cluster: {gpu: tpu-v5e, topology: 4x4, slices: 2}\ncollective: {algorithm: torus, op: all_to_all}", "collective.algorithm", "torus"},
		{"gpus: 8\ncollective: {op: all_gather, axes: x}", "collective.axes", "TPU slice"},
		{"cluster: {gpu: tpu-v5e, topology: 4x4}\ncollective: {algorithm: torus, op: broadcast}", "collective.algorithm", "torus"},
	} {
		_, err := scenario.Parse([]byte("strategy: collective\n" + c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v; want one naming %s and %q", c.yaml, err, c.key, c.want)
		}
	}
}

// TestTorusSlicesClosedForm runs the hierarchical all-reduce,
// reduce-scatter and all-gather over several slices and their data-centre
// network, every message simulated, and holds each to
// collective.TorusSlicesTime within 0.5%.
func TestTorusSlicesClosedForm(t *testing.T) {
	worst := 0.0
	defer func() { t.Logf("largest error against the closed form: %.4f%%", 100*worst) }()
	for _, c := range []struct {
		tpu, shape string
		slices     int
		axes       string
	}{
		{"tpu-v5e", "4x4", 2, ""}, {"tpu-v5e", "4x4", 3, ""}, {"tpu-v5e", "4x4", 2, "x"}, {"tpu-v5p", "4x4x4", 2, ""},
		{"tpu-v5p", "2x2x4", 4, ""}, {"tpu-v6e", "8x8", 2, ""}, {"tpu-v4", "4x4x4", 3, "xy"},
	} {
		for _, op := range []string{"all_reduce", "reduce_scatter", "all_gather"} {
			for _, size := range []string{"256MiB", "64KiB"} {
				yaml := fmt.Sprintf("strategy: collective\ncluster: {gpu: %s, topology: %s, slices: %d}\ncollective: {op: %s, algorithm: torus, size: %s, axes: %q}",
					c.tpu, c.shape, c.slices, op, size, c.axes)
				s, err := scenario.Parse([]byte(yaml))
				if err != nil {
					t.Fatalf("%s: %v", yaml, err)
				}
				got := torusRun(t, s)
				want, err := TorusTime(s, mustTopology(t, s))
				if err != nil {
					t.Fatal(err)
				}
				e := got/want - 1
				worst = max(worst, math.Abs(e))
				if math.Abs(e) > 0.005 {
					t.Errorf("%s %s × %d axes %q, %s %s: simulated %.5g µs, closed form %.5g µs (%+.2f%%)", c.tpu, c.shape, c.slices, c.axes, op, size, got*1e6, want*1e6, 100*e)
				}
			}
		}
	}
}

// TestTorusCaption: a torus scenario's caption sets its simulated time
// beside the torus closed form, and they agree within the caption's
// tolerance.
func TestTorusCaption(t *testing.T) {
	for _, file := range []string{"tpu-v5e-8x4-allgather-y.yaml", "tpu-v4-4x4x4-allgather-xy.yaml", "tpu-v5e-16x16-allreduce-nowrap.yaml"} {
		s := parseFile(t, "testdata/"+file)
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		parts, err := Strategy{}.Caption(s, tl, tl.Summarize())
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(parts) == 0 || parts[0].Check == nil || !parts[0].Agrees() || !strings.Contains(parts[0].Text, "torus") {
			t.Errorf("%s: caption %+v; want the torus closed form, agreeing", file, parts)
		}
	}
}
