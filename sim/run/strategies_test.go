package run

import (
	"paraplay/sim/localsgd"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Local SGD against data parallelism: two strategies through Simulate.

func bytesSent(tl *timeline.Timeline) units.Bytes {
	var b units.Bytes
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
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
				s := scenario.Default()
				s.Strategy, s.GPUs, s.Collective.Algorithm, s.Iterations = localsgd.Name, gpus, algo, iters
				s.Sync.Period, s.Sync.Layers = tc.period, tc.layers
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
	s := scenario.Default()
	s.Strategy, s.Sync.Period, s.Sync.Layers, s.Iterations = localsgd.Name, 1, 1, 5
	tl := mustSimulate(t, s)
	if got, want := tl.End, 5*dp.End; got != want {
		t.Errorf("5 iterations of local SGD with H = 1 took %v, want 5 × %v = %v", got, dp.End, want)
	}
}

func mustSimulate(t *testing.T, s scenario.Scenario) *timeline.Timeline {
	t.Helper()
	return strategytest.MustRun(t, Simulate, s)
}
