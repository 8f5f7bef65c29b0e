package timeline

import (
	"strings"
	"testing"

	"paraplay/sim/units"
)

// asyncRun is two workers and a server; worker 1 runs its second iteration
// two ahead of worker 0's pushes.
func asyncRun() *Timeline {
	return &Timeline{
		GPUs:  []GPU{{ID: 0, Name: "GPU 0"}, {ID: 1, Name: "GPU 1"}, {ID: 2, Name: "PS 0", Node: 1, Role: "ps"}},
		End:   10,
		Spans: []Span{{GPU: 0, Kind: Forward, Start: 0, End: 10}},
		Async: &Async{Mode: "ssp", Bound: 2, Workers: []int{0, 1}, Servers: []int{2}, Speeds: []float64{0.5, 1},
			Iterations: []WorkerIteration{
				{Worker: 0, Index: 0, Start: 0, End: 10, Limit: 2},
				{Worker: 1, Index: 0, Start: 0, End: 4, Limit: 2},
				{Worker: 1, Index: 1, Start: 4, End: 8, Lag: 1, Limit: 2, Staleness: 0},
				{Worker: 1, Index: 2, Start: 8, End: 9, Lag: 2, Limit: 2, Wait: 0, Staleness: 1},
			}},
	}
}

func TestLagAt(t *testing.T) {
	a := asyncRun().Async
	for _, tc := range []struct {
		w         int
		at        int64
		lag, limt int
	}{{1, 0, 0, 2}, {1, 5, 1, 2}, {1, 9, 2, 2}, {0, 9, 0, 2}} {
		lag, limit := a.LagAt(tc.w, unitsTime(tc.at))
		if lag != tc.lag || limit != tc.limt {
			t.Errorf("LagAt(%d, %d) = %d, %d; want %d, %d", tc.w, tc.at, lag, limit, tc.lag, tc.limt)
		}
	}
}

func TestValidateAsync(t *testing.T) {
	if err := asyncRun().Validate(); err != nil {
		t.Fatalf("valid run: %v", err)
	}
	for _, tc := range []struct {
		name    string
		breakIt func(*Timeline)
		want    string
	}{
		{"lag over limit", func(tl *Timeline) { tl.Async.Iterations[3].Lag = 3 }, "over its limit 2"},
		{"server is a GPU", func(tl *Timeline) { tl.Async.Servers = []int{1} }, "not a parameter-server host"},
		{"skipped iteration", func(tl *Timeline) { tl.Async.Iterations[2].Index = 5 }, "comes after"},
		{"past the end", func(tl *Timeline) { tl.Async.Iterations[0].End = 11 }, "bad interval"},
		{"speeds", func(tl *Timeline) { tl.Async.Speeds = nil }, "0 speeds for 2 workers"},
	} {
		tl := asyncRun()
		tc.breakIt(tl)
		if err := tl.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestSummarizeAsync(t *testing.T) {
	s := asyncRun().Summarize()
	a := s.Async
	if a == nil || a.Iterations != 4 || a.MaxLag != 2 || a.MeanLag != 0.75 || a.MeanStaleness != 0.25 {
		t.Fatalf("Async summary %+v", a)
	}
	if w := a.Workers[1]; w.Iterations != 3 || w.MaxLag != 2 || w.MeanLag != 1 {
		t.Errorf("worker 1: %+v", w)
	}
	var b strings.Builder
	s.WriteText(&b)
	if !strings.Contains(b.String(), "run time") || !strings.Contains(b.String(), "ssp: 4 iterations") {
		t.Errorf("text summary:\n%s", b.String())
	}
}

func unitsTime(ns int64) units.Time { return units.Time(ns) }
