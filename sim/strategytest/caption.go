//go:build !js

package strategytest

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// Caption runs the scenario of yaml (st registered first) and returns the
// parts of its demo's caption, with the run and its summary.
func Caption(t testing.TB, st strategy.Strategy, yaml string) ([]strategy.Part, *timeline.Timeline, timeline.Summary) {
	t.Helper()
	Register(st)
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	tl := MustRun(t, st.Simulate, s)
	sum := tl.Summarize()
	parts, err := st.Caption(s, tl, sum)
	if err != nil {
		t.Fatalf("Caption: %v", err)
	}
	for _, p := range parts {
		if err := p.Validate(); err != nil {
			t.Errorf("Caption: %v", err)
		}
	}
	return parts, tl, sum
}

// Checked returns the part of parts whose check is named name, failing t
// when there is none or when its two figures disagree.
func Checked(t testing.TB, parts []strategy.Part, name string) strategy.Part {
	t.Helper()
	for _, p := range parts {
		if p.Check != nil && p.Check.Name == name {
			if !p.Agrees() {
				t.Errorf("%s: simulated %g, %s = %g: further apart than %g", name, p.Simulated(), p.Check.Formula, p.Expected(), p.Check.Tolerance)
			}
			return p
		}
	}
	t.Fatalf("no caption part checks %q", name)
	return strategy.Part{}
}

// Unchecked reports whether no part of parts checks name.
func Unchecked(parts []strategy.Part, name string) bool {
	for _, p := range parts {
		if p.Check != nil && p.Check.Name == name {
			return false
		}
	}
	return true
}

// Figure returns the first part whose text contains text, failing t when
// there is none.
func Figure(t testing.TB, parts []strategy.Part, text string) strategy.Part {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(p.Text, text) {
			return p
		}
	}
	t.Fatalf("no caption part says %q", text)
	return strategy.Part{}
}
