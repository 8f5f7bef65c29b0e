//go:build !js

package localsgd

import (
	"math"
	"testing"

	"paraplay/sim/strategy"
	"paraplay/sim/strategytest"
	"paraplay/sim/units"
)

// TestLocalSGDRunFormula checks the caption's closed form for a local-SGD
// run against the simulated run, to the microsecond, over a WAN-like link
// with and without compression, and against a value worked out by hand;
// and that the caption leaves it out where it does not hold.
func TestLocalSGDRunFormula(t *testing.T) {
	const base = "strategy: local-sgd\ngpus: 4\nlink: {bandwidth: 100MB/s, latency: 30ms}\ncompute: {forward: 200ms, backward: 400ms}\ncollective: {size: 2.6GB}\niterations: 16\n"
	for _, tt := range []struct {
		name, yaml string
		hand       float64 // seconds, worked out by hand
	}{
		// 16·0.6 s + 2·(1.5·2.6 GB/(100 MB/s) + 6·30 ms) = 9.6 + 2·39.18 s.
		{"H=8", base + "sync: {period: 8}\n", 9.6 + 2*39.18},
		// Encoding 2.6e9/2^20 MiB · 1 ms and an all-reduce of 26 MB,
		// 1.5·26e6/1e8 + 0.18 s, per averaging.
		{"H=8 compressed", base + "sync: {period: 8}\ncompression: {ratio: 0.01, time_per_mib: 1ms}\n", 9.6 + 2*(2.6e9/(1<<20)*1e-3+0.39+0.18)},
		{"H=1", base + "sync: {period: 1}\n", 9.6 + 16*39.18},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parts, _, sum := strategytest.Caption(t, Strategy{}, tt.yaml)
			p := strategytest.Checked(t, parts, "local SGD run")
			if got := units.Time(p.Expected()).Seconds(); math.Abs(got-tt.hand) > 1e-6 {
				t.Errorf("closed form %.6f s, by hand %.6f s", got, tt.hand)
			}
			if got, sim := units.Time(p.Expected()).Seconds(), sum.Iteration.Seconds(); math.Abs(got-sim) > 1e-6 {
				t.Errorf("closed form %.6f s, simulated %.6f s", got, sim)
			}
		})
	}
	for _, off := range []string{"sync: {period: 8, layers: 4}\n", "sync: {period: 8, speeds: '1,1,1,0.5'}\n", "sync: {period: 5}\n"} {
		if parts, _, _ := strategytest.Caption(t, Strategy{}, base+off); !strategytest.Unchecked(parts, "local SGD run") {
			t.Errorf("%q: the caption sets the closed form beside a run it does not hold for", off)
		}
	}
}

// TestLocalSGDBytes checks the bytes the caption compares: local SGD with
// H = 4 sends a quarter of what synchronous data parallelism does.
func TestLocalSGDBytes(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, "strategy: local-sgd\ngpus: 4\niterations: 8\nsync: {period: 4}\n")
	sent := strategytest.Figure(t, parts, "sent {}")
	dp := strategytest.Figure(t, parts, "synchronous DP would send {}, H = 4 times as much")
	// 8 iterations of a 256 MiB model on 4 GPUs: each ring all-reduce
	// sends 2(n−1)·S = 1.5 GiB; local SGD averages twice.
	if got, want := sent.Values[0], strategy.Bytes(3*units.GiB, strategy.Size); got != want {
		t.Errorf("sent %v, want %v", got, want)
	}
	if got, want := dp.Values[0], strategy.Bytes(12*units.GiB, strategy.Size); got != want {
		t.Errorf("data parallelism sends %v, want %v", got, want)
	}
}
