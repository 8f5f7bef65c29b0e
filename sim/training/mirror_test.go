package training

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
)

// mirrorCases are runs with data-parallel replicas, across the features
// that reach into every replica: ZeRO's gathers, context parallelism,
// interleaving, zero-bubble split backward, experts, recompute, the ideal
// network and detailed fidelity (never mirrored).
func mirrorCases(t *testing.T) []scenario.Scenario {
	base := strategytest.Load(t, "../scenario/testdata/llama3-8b-2x8.yaml")
	var out []scenario.Scenario
	add := func(name string, change func(s *scenario.Scenario)) {
		s := base
		s.Name = name
		change(&s)
		if err := s.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, s)
	}
	add("as is (auto: detailed)", func(s *scenario.Scenario) {})
	add("analytic", func(s *scenario.Scenario) { s.Fidelity = "analytic" })
	for _, z := range []int{1, 2, 3} {
		add(fmt.Sprintf("analytic zero %d", z), func(s *scenario.Scenario) { s.Fidelity, s.Parallel.ZeRO = "analytic", z })
	}
	add("analytic dp 4 pp 4 tp 1 interleaved", func(s *scenario.Scenario) {
		s.Fidelity = "analytic"
		s.Parallel.DP, s.Parallel.TP, s.Parallel.PP, s.Parallel.Schedule, s.Parallel.VirtualStages = 4, 1, 4, "interleaved", 2
		s.Parallel.SequenceParallel = false
	})
	add("analytic dp 2 cp 2 tp 2 pp 2", func(s *scenario.Scenario) {
		s.Fidelity = "analytic"
		s.Parallel.TP, s.Parallel.CP = 2, 2
	})
	add("analytic zb-h1 full recompute", func(s *scenario.Scenario) {
		s.Fidelity, s.Parallel.Schedule, s.Parallel.Recompute = "analytic", "zb-h1", "full"
	})
	add("ideal network dp 8 pp 2", func(s *scenario.Scenario) {
		s.Cluster.Network = "ideal"
		s.Parallel.DP, s.Parallel.TP = 8, 1
		s.Parallel.SequenceParallel = false
	})
	add("analytic dp innermost (irregular mirrors)", func(s *scenario.Scenario) {
		s.Fidelity, s.Parallel.Order = "analytic", "dp,tp,cp,pp"
	})
	add("analytic mixtral ep 2", func(s *scenario.Scenario) {
		s.Fidelity, s.Model.Preset, s.Parallel.EP = "analytic", "mixtral-8x7b", 2
	})
	add("analytic gpipe 16 microbatches", func(s *scenario.Scenario) {
		s.Fidelity, s.Parallel.Schedule, s.Parallel.Microbatches = "analytic", "gpipe", 16
	})
	return out
}

// TestMirroredEqualsEveryReplica holds a mirrored run, expanded, to the
// run that simulates every replica: the same timeline JSON, Chrome trace
// and summary, byte for byte, and the mirrored timeline summarised and
// written without expanding gives the same bytes too.
func TestMirroredEqualsEveryReplica(t *testing.T) {
	for _, s := range mirrorCases(t) {
		t.Run(s.Name, func(t *testing.T) {
			everyReplica = true
			want, err := SimulateMirrored(s)
			everyReplica = false
			if err != nil {
				t.Fatal(err)
			}
			if want.Mirrors != nil {
				t.Fatal("every replica was simulated, yet the timeline is mirrored")
			}
			got, err := SimulateMirrored(s)
			if err != nil {
				t.Fatal(err)
			}
			mirrored := got.Mirrors != nil
			if wantMirrored := s.Fidelity != "" && s.Fidelity != "auto" || s.Cluster.Network == "ideal"; mirrored != wantMirrored {
				t.Errorf("mirrored = %v, want %v", mirrored, wantMirrored)
			}
			if mirrored && got.Events >= want.Events {
				t.Errorf("mirrored run fired %d events, every replica %d: want fewer", got.Events, want.Events)
			}
			if n := got.SpanCount(); n != len(want.Spans) {
				t.Errorf("SpanCount = %d, want %d", n, len(want.Spans))
			}
			compare(t, "timeline JSON", timeline.WriteJSON, got, want)
			compare(t, "Chrome trace", (*timeline.Timeline).WriteChromeTrace, got, want)
			if g, w := got.Summarize(), want.Summarize(); fmt.Sprint(g) != fmt.Sprint(w) {
				t.Errorf("summary of the mirrored run:\n%+v\nwant\n%+v", g, w)
			}
			got.Expand()
			if got.Mirrors != nil || len(got.Spans) != len(want.Spans) {
				t.Fatalf("expanded: %d spans, mirrors %v; want %d spans, none", len(got.Spans), got.Mirrors != nil, len(want.Spans))
			}
			if err := got.Validate(); err != nil {
				t.Errorf("expanded timeline: %v", err)
			}
			compare(t, "expanded timeline JSON", timeline.WriteJSON, got, want)
		})
	}
}

// compare writes both timelines with write and reports where they first
// differ.
func compare(t *testing.T, what string, write func(*timeline.Timeline, io.Writer) error, got, want *timeline.Timeline) {
	t.Helper()
	var g, w bytes.Buffer
	if err := write(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := write(want, &w); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(g.Bytes(), w.Bytes()) {
		return
	}
	i := 0
	for i < min(g.Len(), w.Len()) && g.Bytes()[i] == w.Bytes()[i] {
		i++
	}
	lo := max(0, i-200)
	t.Errorf("%s differs at byte %d of %d (want %d):\ngot  …%s…\nwant …%s…", what, i, g.Len(), w.Len(),
		g.Bytes()[lo:min(g.Len(), i+200)], w.Bytes()[lo:min(w.Len(), i+200)])
}

func BenchmarkMirroredCheck405BOn16384(b *testing.B) {
	s := strategytest.Load(b, "../run/testdata/scale/llama3-405b-16k.yaml")
	for b.Loop() {
		if m, _ := mirrorCheck(s); !m {
			b.Fatal("the 405B run is not mirrored")
		}
	}
}

// BenchmarkSummarizeMirrored405B is BenchmarkSummarize405B on the
// mirrored timeline, whose spans are expanded as the summary reads them.
func BenchmarkSummarizeMirrored405B(b *testing.B) {
	tl, err := SimulateMirrored(strategytest.Load(b, "../run/testdata/scale/llama3-405b-16k.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	if tl.Mirrors == nil {
		b.Fatal("not mirrored")
	}
	for b.Loop() {
		tl.Summarize()
	}
}
