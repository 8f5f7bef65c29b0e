//go:build !js

package opgraph

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// fuzzPicker is the fuzz targets' chooser: each call spends one byte of
// data to pick one of vs, and the first once data runs out.
func fuzzPicker(data []byte) func(vs ...int) int {
	return func(vs ...int) int {
		if len(data) == 0 {
			return vs[0]
		}
		v := vs[int(data[0])%len(vs)]
		data = data[1:]
		return v
	}
}

// runFuzzed checks a fuzzed scenario: a refusal must name a graph or
// cluster key; an accepted one within limits must simulate to a valid
// timeline inside its work bound's spans and transfers. It returns
// whether the scenario ran.
func runFuzzed(t *testing.T, s scenario.Scenario, limits budget.Limits) bool {
	t.Helper()
	var bad []string
	Strategy{}.Check(&s, func(key, format string, args ...any) { bad = append(bad, key+": "+fmt.Sprintf(format, args...)) })
	if len(bad) > 0 {
		if !strings.HasPrefix(bad[0], "graph.") && !strings.HasPrefix(bad[0], "cluster.") {
			t.Fatalf("refused without naming a graph or cluster key: %v", bad)
		}
		return false
	}
	w := Strategy{}.Work(s)
	if limits.Check(w) != nil {
		return false
	}
	tl, err := Strategy{}.Simulate(s)
	if err != nil {
		t.Fatalf("%s: accepted, then failed: %v", s.Describe(), err)
	}
	if err := tl.Validate(); err != nil {
		t.Fatalf("%s: %v", s.Describe(), err)
	}
	if n := float64(len(tl.Spans)); n > w.Spans.N {
		t.Errorf("%s: %g spans, bound %g", s.Describe(), n, w.Spans.N)
	}
	if n := float64(tl.Transfers.Len()); n > w.Transfers.N {
		t.Errorf("%s: %g transfers, bound %g", s.Describe(), n, w.Transfers.N)
	}
	return true
}
