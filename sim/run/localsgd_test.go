package run

import (
	"fmt"
	"math"
	"paraplay/sim/localsgd"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

func localScenario(period, layers, iters int) scenario.Scenario {
	s := scenario.Default()
	s.Strategy = localsgd.Name
	s.Sync.Period, s.Sync.Layers, s.Iterations = period, layers, iters
	return s
}

func bytesSent(tl *timeline.Timeline) units.Bytes {
	var b units.Bytes
	for _, x := range tl.Transfers {
		b += x.Bytes
	}
	return b
}

// Acceptance: local SGD with H = 1 communicates exactly what synchronous
// data parallelism does — one all-reduce of the model per iteration — in
// one piece or in layer groups; with period H it communicates 1/H of it.
func TestLocalSGDBytesMatchDataParallel(t *testing.T) {
	for _, algo := range []string{"ring", "tree", "halving_doubling"} {
		for _, gpus := range []int{4, 8} {
			const iters = 8
			dp := scenario.Default()
			dp.GPUs, dp.Collective.Algorithm = gpus, algo
			perIter := bytesSent(mustSimulate(t, dp))
			for _, tc := range []struct{ period, layers int }{{1, 1}, {1, 4}, {2, 1}, {4, 1}, {4, 8}, {8, 3}} {
				s := localScenario(tc.period, tc.layers, iters)
				s.GPUs, s.Collective.Algorithm = gpus, algo
				tl := mustSimulate(t, s)
				want := perIter * iters / units.Bytes(tc.period)
				if got := bytesSent(tl); got != want || tl.Async.Bytes != got {
					t.Errorf("%s on %d GPUs, H=%d, %d groups: %v sent (record says %v), want %v = %d iterations of DP's %v / H",
						algo, gpus, tc.period, tc.layers, got, tl.Async.Bytes, want, iters, perIter)
				}
			}
		}
	}
}

// With H = 1 and the whole model at once, local SGD is synchronous data
// parallelism iteration after iteration: K iterations take K times one.
func TestLocalSGDPeriodOneIsDataParallelInTime(t *testing.T) {
	dp := mustSimulate(t, scenario.Default())
	tl := mustSimulate(t, localScenario(1, 1, 5))
	if got, want := tl.End, 5*dp.End; got != want {
		t.Errorf("5 iterations of local SGD with H = 1 took %v, want 5 × %v = %v", got, dp.End, want)
	}
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

func ExampleSimulate_localSGD() {
	s := scenario.Default()
	s.Strategy = localsgd.Name
	s.Sync.Period, s.Iterations = 4, 8
	tl, err := Simulate(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d all-reduces of %v in %v\n", len(tl.Collectives), tl.Collectives[0].Bytes, tl.End)
	// Output: 2 all-reduces of 256MiB in 56.113068ms
}
