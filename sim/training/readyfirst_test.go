package training

import (
	"bytes"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// pipelineRun is GPT-3 1.3B in four pipeline stages on H100s, with dp
// replicas, m microbatches and the schedule given.
func pipelineRun(schedule string, dp, m int) scenario.Scenario {
	s := scenario.Default()
	s.Strategy = Name
	s.Model = scenario.Model{Preset: "gpt3-1.3b"}
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: 4 * dp}
	s.Parallel.DP, s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.Schedule = dp, 4, m, schedule
	return s
}

// runEnd is when a run's last span ends.
func runEnd(tl *timeline.Timeline) units.Time {
	var end units.Time
	for _, sp := range tl.Spans {
		end = max(end, sp.End)
	}
	return end
}

// TestReadyFirstIsOneFOneBWithoutVariability: with every op at its
// nominal time ready-first ends each iteration when 1F1B does, to the
// nanosecond, in every fidelity, with data parallelism, tensor
// parallelism and ZeRO. Its spans are not 1F1B's: a middle stage that
// waits for its first backward runs the forwards already in its inbox
// (up to p in flight), which finish before the backward arrives.
func TestReadyFirstIsOneFOneBWithoutVariability(t *testing.T) {
	cases := []struct {
		name string
		set  func(*scenario.Scenario)
	}{
		{"ideal", func(s *scenario.Scenario) { s.Cluster.Network = "ideal" }},
		{"analytic", func(s *scenario.Scenario) { s.Fidelity = "analytic" }},
		{"detailed dp 2", func(s *scenario.Scenario) { s.Fidelity = "detailed" }},
		{"tp 2, zero 1", func(s *scenario.Scenario) {
			s.Parallel.TP, s.Parallel.ZeRO, s.Cluster.GPUsPerNode = 2, 1, 16
		}},
		{"m 3 < p", func(s *scenario.Scenario) { s.Parallel.Microbatches = 3 }},
	}
	for _, c := range cases {
		a, b := pipelineRun("1f1b", 2, 8), pipelineRun("ready-first", 2, 8)
		c.set(&a)
		c.set(&b)
		ta, tb := mustSimulate(t, a), mustSimulate(t, b)
		if a, b := runEnd(ta), runEnd(tb); a != b {
			t.Errorf("%s: 1F1B ends at %v, ready-first at %v", c.name, a, b)
		}
		if a, b := len(ta.Spans), len(tb.Spans); a != b {
			t.Errorf("%s: 1F1B has %d spans, ready-first %d", c.name, a, b)
		}
	}
}

// variability lists the run-time variations of the tests: per-op
// stragglers, a fail-slow GPU and variable sequence lengths.
var variability = []struct {
	name string
	set  func(*scenario.Scenario)
}{
	{"straggler cv 0.1", func(s *scenario.Scenario) { s.Straggler.CV = 0.1 }},
	{"fail-slow stage 2", func(s *scenario.Scenario) {
		s.Straggler.CV = 0.05
		s.Faults = []scenario.Fault{{Kind: "fail_slow", GPU: 2, Factor: 0.5}}
	}},
	{"sequence lengths cv 1", func(s *scenario.Scenario) { s.Data.SeqDist, s.Data.SeqCV = "lognormal", 1 }},
}

// TestReadyFirstNeverSlower runs 1F1B and ready-first over eight seeds of
// each kind of variability (two iterations of 16 microbatches) and holds
// ready-first to no slower than 1F1B on every seed, and faster on some.
func TestReadyFirstNeverSlower(t *testing.T) {
	for _, v := range variability {
		worst, best := 10.0, 0.0
		for seed := uint64(1); seed <= 8; seed++ {
			a, b := pipelineRun("1f1b", 1, 16), pipelineRun("ready-first", 1, 16)
			v.set(&a)
			v.set(&b)
			a.Seed, b.Seed, a.Iterations, b.Iterations = seed, seed, 2, 2
			r := float64(runEnd(mustSimulate(t, a))) / float64(runEnd(mustSimulate(t, b)))
			worst, best = min(worst, r), max(best, r)
		}
		t.Logf("%s: 1F1B time / ready-first time %.3f..%.3f over 8 seeds", v.name, worst, best)
		if worst < 1 {
			t.Errorf("%s: ready-first slower than 1F1B on some seed (ratio %.4f)", v.name, worst)
		}
	}
}

// TestReadyFirstHeavyJitter documents the limit of a greedy dispatcher:
// under per-op stragglers of cv 0.3 a forward started in a gap sometimes
// delays a backward that arrives during it. Over eight seeds of eight
// microbatches the loss stays within 4% and the mean is no loss.
func TestReadyFirstHeavyJitter(t *testing.T) {
	worst, sum := 10.0, 0.0
	for seed := uint64(1); seed <= 8; seed++ {
		a, b := pipelineRun("1f1b", 1, 8), pipelineRun("ready-first", 1, 8)
		a.Straggler.CV, b.Straggler.CV = 0.3, 0.3
		a.Seed, b.Seed, a.Iterations, b.Iterations = seed, seed, 2, 2
		r := float64(runEnd(mustSimulate(t, a))) / float64(runEnd(mustSimulate(t, b)))
		worst, sum = min(worst, r), sum+r
	}
	t.Logf("cv 0.3: worst %.3f, mean %.4f", worst, sum/8)
	if worst < 0.96 || sum/8 < 1 {
		t.Errorf("cv 0.3: worst ratio %.3f (want ≥ 0.96), mean %.4f (want ≥ 1)", worst, sum/8)
	}
}

// TestReadyFirstDeterministicAndBounded: the run-time decisions depend
// only on the scenario and seed (two runs give byte-identical traces),
// and no device ever holds more than p microbatches.
func TestReadyFirstDeterministicAndBounded(t *testing.T) {
	s := pipelineRun("ready-first", 2, 16)
	s.Data.SeqDist, s.Data.SeqCV, s.Straggler.CV, s.Iterations = "lognormal", 1, 0.1, 2
	var traces [2]bytes.Buffer
	for i := range traces {
		tl := mustSimulate(t, s)
		if err := tl.WriteChromeTrace(&traces[i]); err != nil {
			t.Fatal(err)
		}
		for g, m := range tl.Memory {
			for _, pt := range m.Activations {
				if pt.InFlight > 4 {
					t.Fatalf("GPU %d at %v: %v microbatches in flight, more than p = 4", g, pt.At, pt.InFlight)
				}
			}
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Error("two runs of the same scenario and seed gave different traces")
	}
}

// TestReadyFirstRefusesBlockingSends: a blocking send waits for the
// sender's next op in a fixed order, which ready-first has not.
func TestReadyFirstRefusesBlockingSends(t *testing.T) {
	s := pipelineRun("ready-first", 1, 8)
	s.Parallel.P2P = P2PBlocking
	_, err := simulate(s)
	if err == nil || !strings.Contains(err.Error(), "parallel.p2p") {
		t.Errorf("got %v, want an error naming parallel.p2p", err)
	}
}
