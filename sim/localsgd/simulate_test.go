package localsgd

import (
	"fmt"
	"math"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

func localScenario(period, layers, iters int) scenario.Scenario {
	s := scenario.Default()
	s.Strategy = Name
	s.Sync.Period, s.Sync.Layers, s.Iterations = period, layers, iters
	return s
}

func mustSimulate(t testing.TB, s scenario.Scenario) *timeline.Timeline {
	t.Helper()
	return strategytest.MustRun(t, Simulate, s)
}

// Averaging less often shortens the run; DreamDDP's layer groups overlap
// the averaging with compute, so they beat averaging the whole model at
// the end of each period on communication-heavy runs.
func TestLocalSGDPeriodAndPartialSync(t *testing.T) {
	base := localScenario(1, 1, 8)
	base.Collective.Size = 1 * units.GiB
	h1 := mustSimulate(t, base)
	h4 := base
	h4.Sync.Period = 4
	whole := mustSimulate(t, h4)
	h4.Sync.Layers = 8
	partial := mustSimulate(t, h4)
	if !(whole.End < h1.End && partial.End < whole.End) {
		t.Errorf("H=1 %v, H=4 whole model %v, H=4 in 8 groups %v: want each shorter than the one before", h1.End, whole.End, partial.End)
	}
	t.Logf("1 GiB on 4 GPUs, 8 iterations: H=1 %v, H=4 %v, H=4 DreamDDP-style %v", h1.End, whole.End, partial.End)
	for _, it := range whole.Async.Iterations {
		if want := it.Index % 4; it.Lag != want {
			t.Errorf("H=4 iteration %d: lag %d, want %d local steps since the last averaging", it.Index, it.Lag, want)
		}
	}
}

func TestLocalSGDWithSlowWorker(t *testing.T) {
	s := localScenario(4, 1, 8)
	s.Sync.Speeds = []float64{1, 1, 1, 0.5}
	tl := mustSimulate(t, s)
	// Between averagings nobody waits; at the averaging after iteration 3
	// a fast worker waits for the slow one's 4 local steps, 4 × 6ms ×
	// (1/0.5 − 1), and then for the ring all-reduce itself (the last
	// averaging ends the run, so no iteration waits for it).
	var wait units.Time
	for _, it := range tl.Async.Iterations {
		if it.Worker == 0 {
			wait += it.Wait
		}
	}
	ring := units.Round(collective.RingTime(4, s.Collective.Size, s.Link.Latency, s.Link.Bandwidth))
	if want := 4*6*units.Millisecond + ring; math.Abs(float64(wait-want)) > float64(want)/1000 {
		t.Errorf("worker 0 waited %v, want 24ms + the all-reduce's %v = %v", wait, ring, want)
	}
}

func ExampleSimulate() {
	s := scenario.Default()
	s.Strategy = Name
	s.Sync.Period, s.Iterations = 4, 8
	tl, err := Simulate(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d all-reduces of %v in %v\n", len(tl.Collectives), tl.Collectives[0].Bytes, tl.End)
	// Output: 2 all-reduces of 256MiB in 56.113068ms
}
