package timeline_test

import (
	"os"
	"path/filepath"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// simulateFile parses the scenario in file and simulates it.
func simulateFile(tb testing.TB, file string) *timeline.Timeline {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	tl, err := run.Simulate(s)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return tl
}

// BenchmarkValidate405B validates one iteration of Llama 3 405B on 16,384
// GPUs: the largest timeline the tests build, which every run now pays for.
func BenchmarkValidate405B(b *testing.B) {
	tl := simulateFile(b, "../run/testdata/scale/llama3-405b-16k.yaml")
	b.ReportMetric(float64(len(tl.Spans)), "spans")
	b.ReportMetric(float64(tl.Transfers.Len()), "transfers")
	b.ResetTimer()
	for b.Loop() {
		if err := tl.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEveryScenarioValidates simulates every scenario of the scenario
// package's test data and checks that its timeline passes Validate: every
// strategy's records carry invariants their simulator keeps.
func TestEveryScenarioValidates(t *testing.T) {
	files, err := filepath.Glob("../scenario/testdata/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenario matches ../scenario/testdata/*.yaml")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			tl := simulateFile(t, file)
			if err := tl.Validate(); err != nil {
				t.Errorf("Validate() = %v", err)
			}
		})
	}
}
