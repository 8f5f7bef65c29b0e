//go:build !js

package paramserver

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/units"
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

// Slim-DP's bytes on the wire against their closed forms: a worker pushes
// k = rS/4 fp32 values with a 4-byte index each, 2rS, and pulls the k
// values alone, rS, whatever the number of server shards; a run with
// them takes less time than an uncompressed one on a thin link.
func TestSlimDPBytes(t *testing.T) {
	for _, servers := range []int{1, 3} {
		yaml := strings.Replace(psYAML, "64MiB", "64MiB}\nlink: {bandwidth: 1.25GB/s", 1) +
			fmt.Sprintf("bsp, servers: %d}\ncompression: {method: slim-dp, ratio: 0.2}\n", servers)
		parts, tl, _ := strategytest.Caption(t, Strategy{}, yaml)
		rS := 0.2 * float64(64*units.MiB)
		for _, c := range []struct {
			name string
			want float64
		}{{"Slim-DP push bytes", 2 * rS}, {"Slim-DP pull bytes", rS}} {
			p := strategytest.Checked(t, parts, c.name)
			if math.Abs(p.Simulated()-c.want) > 8*float64(servers) || p.Expected() != c.want {
				t.Errorf("%d servers, %s: simulated %v, closed form %v; want %v within a value and its index per shard", servers, c.name, p.Simulated(), p.Expected(), c.want)
			}
		}
		plain, err := scenario.Parse([]byte(yaml[:strings.Index(yaml, "compression:")]))
		if err != nil {
			t.Fatal(err)
		}
		if dense := strategytest.MustRun(t, Simulate, plain); tl.End >= dense.End {
			t.Errorf("%d servers: the Slim-DP run takes %v, the uncompressed one %v; want it shorter", servers, tl.End, dense.End)
		}
	}
}
