//go:build !js

package mgrit

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
)

func scen(t *testing.T, gpus, layers, m, k int, relax string) scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte(fmt.Sprintf("strategy: layer-parallel\ngpus: %d\nlink: {bandwidth: 100GB/s, latency: 5us}\ncompute: {forward: 1ms, backward: 2ms}\nmgrit: {layers: %d, coarsen: %d, iterations: %d, relax: %s}\n", gpus, layers, m, k, relax)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStepMatchesClosedForm: with the layers split evenly, the simulated
// step equals K·T_iter + (ℓ − c)·t for both solves to the nanosecond, for
// both relaxations and several GPUs, coarsenings and iteration counts.
func TestStepMatchesClosedForm(t *testing.T) {
	for _, c := range []struct {
		gpus, layers, m, k int
		relax              string
	}{{1, 64, 4, 2, "fcf"}, {4, 256, 4, 2, "fcf"}, {16, 1024, 4, 2, "fcf"}, {8, 512, 8, 3, "f"}, {32, 1024, 2, 1, "f"}, {16, 1024, 16, 5, "fcf"}} {
		s := scen(t, c.gpus, c.layers, c.m, c.k, c.relax)
		tl := strategytest.MustRun(t, Simulate, s)
		r := tl.Extra[Name].(*Record)
		if tl.End != r.Closed {
			t.Errorf("%+v: simulated %v, closed form %v", c, tl.End, r.Closed)
		}
	}
}

// TestBreakEven: with free messages, the simulated step is slower than
// serial propagation at ⌊P*⌋ GPUs and faster at ⌈P*⌉ (P* = 8.5 for K = 2,
// m = 4, FCF; 5 for F-relaxation at K = 1, m = 4: (K+1)(1−1/m)/(1−K/m) = 2).
func TestBreakEven(t *testing.T) {
	for _, c := range []struct {
		m, k  int
		relax string
		want  float64
	}{{4, 2, "fcf", 8.5}, {4, 1, "f", 2}, {8, 2, "fcf", 4.625 / 0.75}} {
		y := Settings{Coarsen: c.m, Iterations: c.k, Relax: c.relax}
		p := breakEven(y)
		if math.Abs(p-c.want) > 1e-9 {
			t.Errorf("%+v: P* = %v, want %v", c, p, c.want)
		}
		below, above := int(math.Ceil(p))-1, int(math.Floor(p))+1
		for _, g := range []int{below, above} {
			s := scen(t, g, 64*c.m*g, c.m, c.k, c.relax)
			s.Link.Latency, s.Link.Bandwidth = 1, 100000e9
			Edit(&s, func(y *Settings) { y.State = 1 })
			tl := strategytest.MustRun(t, Simulate, s)
			r := tl.Extra[Name].(*Record)
			if wins := tl.End < r.Serial; wins != (g > int(p)) {
				t.Errorf("%+v at %d GPUs: step %v against serial %v; P* = %v", c, g, tl.End, r.Serial, p)
			}
		}
	}
	if p := breakEven(Settings{Coarsen: 2, Iterations: 2, Relax: "fcf"}); p != 0 {
		t.Errorf("K = m: P* = %v; want 0 (never)", p)
	}
}

// TestCaption: the demo's caption holds the step to its closed form.
func TestCaption(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, "strategy: layer-parallel\ngpus: 16\nlink: {bandwidth: 100GB/s, latency: 5us}\ncompute: {forward: 1ms, backward: 2ms}\nmgrit: {layers: 1024, coarsen: 4, iterations: 2}\n")
	strategytest.Checked(t, parts, "MGRIT step")
}

// TestSameSeedSameTrace: two runs, byte-identical traces.
func TestSameSeedSameTrace(t *testing.T) {
	s := scen(t, 8, 512, 4, 2, "fcf")
	var traces [2]bytes.Buffer
	for i := range traces {
		if err := strategytest.MustRun(t, Simulate, s).WriteChromeTrace(&traces[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Error("two runs of the same scenario gave different traces")
	}
}

// TestBadMGRITInput: each bad value is refused with an error naming its
// key and the allowed range.
func TestBadMGRITInput(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"mgrit: {coarsen: 1}", "mgrit.coarsen: is 1; allowed 2..64"},
		{"mgrit: {layers: 8}", "mgrit.layers: is 8; allowed 16..4096"},
		{"mgrit: {iterations: 0}", "mgrit.iterations: is 0; allowed 1..20"},
		{"mgrit: {relax: c}", "mgrit.relax"},
		{"mgrit: {state: 2GiB}", "mgrit.state"},
		{"cluster: {gpu: h100-sxm}", "cluster.gpu"},
	} {
		_, err := scenario.Parse([]byte("strategy: layer-parallel\ngpus: 4\n" + c.yaml + "\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one containing %q", c.yaml, err, c.want)
		}
	}
}
