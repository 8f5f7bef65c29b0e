package training

import (
	"bytes"
	"sort"
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
// parallelism and ZeRO, and no op ends later than under 1F1B. Its spans
// are not all 1F1B's: a middle stage that waits for its first backward
// runs a forward already in its inbox when that forward fits before the
// backward arrives.
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
		// Every op ends no later than under 1F1B: an op run ahead only
		// fills a gap it fits.
		ends := map[[3]any]units.Time{}
		for _, sp := range ta.Spans {
			ends[[3]any{sp.GPU, sp.Label, sp.Kind}] = sp.End
		}
		for _, sp := range tb.Spans {
			if e, ok := ends[[3]any{sp.GPU, sp.Label, sp.Kind}]; ok && sp.End > e {
				t.Errorf("%s: GPU %d's %s ends at %v, after 1F1B's %v", c.name, sp.GPU, sp.Label, sp.End, e)
			}
		}
	}
}

// variability lists the run-time variations of the tests: per-op
// stragglers over a grid of coefficients of variation, a fail-slow GPU
// with and without them, and variable sequence lengths with and without.
var variability = []struct {
	name string
	set  func(*scenario.Scenario)
}{
	{"straggler cv 0.05", func(s *scenario.Scenario) { s.Straggler.CV = 0.05 }},
	{"straggler cv 0.1", func(s *scenario.Scenario) { s.Straggler.CV = 0.1 }},
	{"straggler cv 0.2", func(s *scenario.Scenario) { s.Straggler.CV = 0.2 }},
	{"straggler cv 0.3", func(s *scenario.Scenario) { s.Straggler.CV = 0.3 }},
	{"straggler cv 0.5", func(s *scenario.Scenario) { s.Straggler.CV = 0.5 }},
	{"fail-slow stage 2", func(s *scenario.Scenario) {
		s.Faults = []scenario.Fault{{Kind: "fail_slow", GPU: 2, Factor: 0.5}}
	}},
	{"fail-slow stage 1, cv 0.3", func(s *scenario.Scenario) {
		s.Straggler.CV = 0.3
		s.Faults = []scenario.Fault{{Kind: "fail_slow", GPU: 1, Factor: 0.7}}
	}},
	{"sequence lengths cv 1", func(s *scenario.Scenario) { s.Data.SeqDist, s.Data.SeqCV = "lognormal", 1 }},
	{"sequence lengths cv 1, straggler cv 0.2", func(s *scenario.Scenario) {
		s.Data.SeqDist, s.Data.SeqCV, s.Straggler.CV = "lognormal", 1, 0.2
	}},
}

// TestReadyFirstNeverSlower runs 1F1B and ready-first on the same draws
// over 200 seeds of each kind of variability (two iterations of 8
// microbatches, in the detailed network, and of 16 microbatches with
// closed-form sends) and holds ready-first to no slower than 1F1B on every
// seed: an op runs ahead of the static order only when, by the estimates,
// it cannot delay the op the order names next. It logs 1F1B's time over
// ready-first's, min/median/max.
func TestReadyFirstNeverSlower(t *testing.T) {
	seeds := uint64(200)
	if testing.Short() {
		seeds = 20
	}
	for _, c := range []struct {
		fidelity string
		m        int
	}{{"auto", 8}, {"analytic", 16}} {
		for _, v := range variability {
			rs := make([]float64, 0, seeds)
			for seed := uint64(1); seed <= seeds; seed++ {
				a, b := pipelineRun("1f1b", 1, c.m), pipelineRun("ready-first", 1, c.m)
				v.set(&a)
				v.set(&b)
				a.Seed, b.Seed, a.Iterations, b.Iterations = seed, seed, 2, 2
				a.Fidelity, b.Fidelity = c.fidelity, c.fidelity
				ta, tb := runEnd(mustSimulate(t, a)), runEnd(mustSimulate(t, b))
				if tb > ta {
					t.Errorf("%s, %s, m %d, seed %d: ready-first %v, slower than 1F1B's %v", v.name, c.fidelity, c.m, seed, tb, ta)
				}
				rs = append(rs, float64(ta)/float64(tb))
			}
			sort.Float64s(rs)
			t.Logf("%s, %s, m %d: 1F1B ÷ ready-first %.4f / %.4f / %.4f (min/median/max over %d seeds)",
				v.name, c.fidelity, c.m, rs[0], rs[len(rs)/2], rs[len(rs)-1], seeds)
		}
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
