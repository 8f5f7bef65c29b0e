//go:build !js

package paramserver

import (
	"strings"
	"testing"

	"paraplay/sim/strategytest"
)

const psYAML = "strategy: parameter-server\ngpus: 4\ncollective: {size: 64MiB}\niterations: 8\nsync: {speeds: '1,0.8,0.6,0.4', mode: "

// TestCaptionChecks checks the closed forms a parameter server's caption
// sets beside the simulated figures: BSP's iteration to the nanosecond's
// rounding (each message's time is rounded to the nanosecond), ASP's throughput within 3% (the server's port queues now and
// then), and the staleness bound SSP prints.
func TestCaptionChecks(t *testing.T) {
	parts, _, _ := strategytest.Caption(t, Strategy{}, psYAML+"bsp}")
	if p := strategytest.Checked(t, parts, "BSP iteration"); p.Simulated()-p.Expected() > 8 || p.Expected()-p.Simulated() > 8 {
		t.Errorf("BSP iteration: simulated %v ns, closed form %v ns; want them equal but for the rounding of eight messages", p.Simulated(), p.Expected())
	}
	long := strings.Replace(strings.Replace(psYAML, "64MiB", "8MiB", 1), "iterations: 8", "iterations: 40", 1) + "asp}"
	parts, _, _ = strategytest.Caption(t, Strategy{}, long)
	if p := strategytest.Checked(t, parts, "ASP throughput"); p.Simulated() < 0.97*p.Expected() || p.Simulated() > 1.03*p.Expected() {
		t.Errorf("ASP throughput: simulated %.4g/s, Σ 1/(c_i + 2T) = %.4g/s: more than 3%% apart", p.Simulated(), p.Expected())
	}
	parts, _, sum := strategytest.Caption(t, Strategy{}, psYAML+"ssp, staleness: 1}")
	lag := strategytest.Figure(t, parts, "version lag mean {}, max {} (bound s = 1)")
	if got := lag.Values[1].V; got != 1 || sum.Async.MaxLag != 1 {
		t.Errorf("SSP with s = 1: caption's max lag %v, summary's %d; want 1", got, sum.Async.MaxLag)
	}
	parts, _, _ = strategytest.Caption(t, Strategy{}, psYAML+"bsp}\ncompute: {jitter: 0.2}\n")
	if !strategytest.Unchecked(parts, "BSP iteration") {
		t.Error("with jitter the caption still sets BSP's closed form beside the run")
	}
}
