package run

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// TestMirroredRuns holds SimulateMirroredWithin to SimulateWithin on the
// testdata scenarios and 300 random ones: the same summary and Chrome
// trace, byte for byte, and its memory within CheckMirrored's bound.
func TestMirroredRuns(t *testing.T) {
	bases := testdataScenarios(t)
	cases := append([]scenario.Scenario(nil), bases...)
	rng := rand.New(rand.NewPCG(20, 2026))
	small := budget.Limits{Who: "the test allows", Events: 400e3, Transfers: 100e3, Spans: 100e3, TraceBytes: 64e6, Memory: 128 << 20}
	// Half the random runs start from a training scenario, the strategy that
	// mirrors, so that a new testdata scenario of another strategy does not
	// thin them out (two lone collectives left 3 mirrored runs of 332).
	var training []scenario.Scenario
	for _, s := range bases {
		if s.Strategy == "training" {
			training = append(training, s)
		}
	}
	for tries := 0; len(cases) < len(bases)+300 && tries < 100000; tries++ {
		from := bases
		if len(training) > 0 && len(cases) >= len(bases)+150 {
			from = training
		}
		s := randomScenario(rng, from[rng.IntN(len(from))])
		if s.Strategy == "training" && rng.IntN(2) == 0 {
			s.Fidelity = "analytic"  // mirrored only when analytic or on an ideal network
			s.Parallel.ZeROGroup = 0 // and without hierarchical ZeRO
		}
		if w, err := Work(s); err == nil && small.Check(w) == nil {
			cases = append(cases, s)
		}
	}
	mirrored := 0
	for _, s := range cases {
		name := s.Title() + " (" + s.Describe() + ")"
		want, err := Simulate(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := SimulateMirroredWithin(s, budget.CLI)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: mirrored: %v", name, err)
		}
		if got.Mirrors != nil {
			mirrored++
		}
		st, _ := Lookup(s.Strategy)
		bound := st.Work(s)
		if m, ok := st.(interface {
			MirroredWork(scenario.Scenario) budget.Work
		}); ok {
			bound = m.MirroredWork(s)
		}
		if used := float64(after.TotalAlloc - before.TotalAlloc); used > bound.Memory.N {
			t.Errorf("%s: the mirrored run allocated %.4g B, bound %.4g", name, used, bound.Memory.N)
		}
		if g, w := summaryJSON(t, got), summaryJSON(t, want); g != w {
			t.Errorf("%s: summaries differ:\n%s\nwant\n%s", name, g, w)
		}
		var g, w bytes.Buffer
		if err := got.WriteChromeTrace(&g); err != nil {
			t.Fatal(err)
		}
		if err := want.WriteChromeTrace(&w); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g.Bytes(), w.Bytes()) {
			t.Errorf("%s: the mirrored run's Chrome trace differs (%d bytes, want %d)", name, g.Len(), w.Len())
		}
	}
	if mirrored < 5 {
		t.Errorf("only %d of %d runs were mirrored", mirrored, len(cases))
	}
	t.Logf("%d of %d runs mirrored", mirrored, len(cases))
}

// summaryJSON is the run's summary as JSON (every figure, pointers
// followed).
func summaryJSON(t *testing.T, tl *timeline.Timeline) string {
	t.Helper()
	b, err := json.Marshal(tl.Summarize())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
