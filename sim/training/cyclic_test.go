//go:build !js

package training

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// cyclicSynthetic is n replicas of a synthetic one-stage model (1 ms
// forward, 2 ms backward per microbatch) on an ideal network, m
// microbatches in the order schedule, staggered or not.
func cyclicSynthetic(n, m int, schedule string, cyclic bool) scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.GPUs = Name, n
	s.Cluster.Network = "ideal"
	s.Model = scenario.Model{Synthetic: scenario.Synthetic{Forward: units.Millisecond, BackwardInput: units.Millisecond, BackwardWeight: units.Millisecond}}
	s.Parallel.DP, s.Parallel.Microbatches, s.Parallel.Schedule, s.Parallel.Cyclic = n, m, schedule, cyclic
	return s
}

func inFlight(p timeline.MemoryPoint) float64 { return p.InFlight }

// TestCyclicMemoryIsConstant checks the closed form of the summed
// activations of n staggered replicas run back to back. In GPipe's order
// a replica's microbatches in flight climb by one at each forward's start
// and fall by one at each backward's end, (m+1)/2 on average over its
// step P = m(T_F+T_B); with n = m replicas shifted by Δ = P/n = T_F+T_B,
// the sum is that average times n, m(m+1)/2, at every instant (we checked
// the identity by hand for T_B/T_F = 1, 1.5 and 2; here T_B = 2T_F). In
// 1F1B's order a replica holds one microbatch throughout: the sum is n.
// Replicas in step hold n·m at once under GPipe.
func TestCyclicMemoryIsConstant(t *testing.T) {
	for _, c := range []struct {
		n        int
		schedule string
		want     float64
	}{
		{2, "gpipe", 3}, {3, "gpipe", 6}, {4, "gpipe", 10}, {6, "gpipe", 21},
		{4, "1f1b", 4}, {8, "1f1b", 8},
	} {
		tl := mustSimulate(t, cyclicSynthetic(c.n, c.n, c.schedule, true))
		step := tl.Training.Step
		if want := units.Time(c.n) * 3 * units.Millisecond; step != want {
			t.Errorf("n %d %s: step %v, want m(T_F+T_B) = %v", c.n, c.schedule, step, want)
		}
		lo, hi, mean := foldedSum(tl, step, inFlight)
		if lo != c.want || hi != c.want || math.Abs(mean-c.want) > 1e-9 {
			t.Errorf("n = m = %d, %s: summed microbatches in flight %v..%v (mean %v), want %v throughout", c.n, c.schedule, lo, hi, mean, c.want)
		}
		sync := mustSimulate(t, cyclicSynthetic(c.n, c.n, c.schedule, false))
		_, syncHi, _ := foldedSum(sync, sync.End, inFlight)
		if c.schedule == "gpipe" && syncHi != float64(c.n*c.n) {
			t.Errorf("n = m = %d in step: peak %v in flight, want n·m = %d", c.n, syncHi, c.n*c.n)
		}
	}
}

// gptReplicas is GPT-3 1.3B in n data-parallel replicas on one node of
// H100s, on the links (detailed).
func gptReplicas(n int, cyclic bool) scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.Fidelity = Name, "detailed"
	s.Model = scenario.Model{Preset: "gpt3-1.3b"}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: n}
	s.Parallel.DP, s.Parallel.Microbatches, s.Parallel.Cyclic = n, 4, cyclic
	return s
}

// TestCyclicPeakLoadFallsByN: the relay sends the same 2(n−1)·G bytes as
// the ring all-reduce it replaces, but one message at a time (a message
// of G takes less than the stagger), where the ring's n ranks each send
// at once: the peak load on the network falls by n.
func TestCyclicPeakLoadFallsByN(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		cyc, sync := mustSimulate(t, gptReplicas(n, true)), mustSimulate(t, gptReplicas(n, false))
		total := func(tl *timeline.Timeline) (b units.Bytes) {
			for i := range tl.Transfers.Len() {
				b += tl.Transfers.At(i).Bytes
			}
			return b
		}
		if a, b := float64(total(cyc)), float64(total(sync)); math.Abs(a/b-1) > 0.01 {
			t.Errorf("n %d: the relay sends %v bytes, the all-reduce %v", n, a, b)
		}
		ratio := peakLoad(sync) / peakLoad(cyc)
		if math.Abs(ratio/float64(n)-1) > 0.01 {
			t.Errorf("n %d: peak load falls %.3f×, want n = %d", n, ratio, n)
		}
		if s, it := cyc.Training.Step, sync.End; s > it {
			t.Errorf("n %d: steady step %v longer than the synchronous iteration %v", n, s, it)
		}
	}
}

// TestCyclicDeterministicAndAnalytic: the same scenario gives
// byte-identical traces, and the analytic fidelity runs the same stagger
// and step.
func TestCyclicDeterministicAndAnalytic(t *testing.T) {
	var traces [2]bytes.Buffer
	for i := range traces {
		if err := mustSimulate(t, gptReplicas(4, true)).WriteChromeTrace(&traces[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Error("two runs of the same scenario gave different traces")
	}
	s := gptReplicas(4, true)
	s.Fidelity = "analytic"
	if got, want := mustSimulate(t, s).Training.Step, mustSimulate(t, gptReplicas(4, true)).Training.Step; got != want {
		t.Errorf("analytic step %v, detailed %v", got, want)
	}
}

// TestCyclicRefusals: each refusal names parallel.cyclic.
func TestCyclicRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*scenario.Scenario)
	}{
		{"dp 1", func(s *scenario.Scenario) { s.Parallel.DP, s.Cluster.GPUsPerNode = 1, 1 }},
		{"pp 2", func(s *scenario.Scenario) { s.Parallel.DP, s.Parallel.PP = 2, 2 }},
		{"zero 1", func(s *scenario.Scenario) { s.Parallel.ZeRO = 1 }},
		{"iterations 2", func(s *scenario.Scenario) { s.Iterations = 2 }},
		{"compression", func(s *scenario.Scenario) { s.Compression.Ratio = 0.1 }},
	} {
		s := gptReplicas(4, true)
		c.set(&s)
		if _, err := simulate(s); err == nil || !strings.Contains(err.Error(), "parallel.cyclic") {
			t.Errorf("%s: got %v, want an error naming parallel.cyclic", c.name, err)
		}
	}
}
