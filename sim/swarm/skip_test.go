//go:build !js

package swarm

import (
	"bytes"
	"math"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// skipRun is swarmRun with each microbatch skipping k stages.
func skipRun(speeds []float64, n, stages, m, k int, rebalance units.Time) scenario.Scenario {
	s := swarmRun(speeds, n, stages, m, rebalance)
	y := SettingsOf(&s)
	y.Skip = k
	scenario.Put(&s, section, y)
	return s
}

// TestSkippingCutsTheWork: a microbatch that skips k of S stages computes
// S − k stages' forward and backward, so the run's compute falls by k/S
// exactly: M·(S−k)·(F+B) on peers of speed 1 (SkipPipe's partial
// pipelines). Stage 0 is on every path; the others are skipped evenly,
// each by a share k/(S−1) of the microbatches within 2%.
func TestSkippingCutsTheWork(t *testing.T) {
	const m, stages = 240, 4
	for k := range stages - 1 {
		tl, _ := run(t, skipRun(nil, 8, stages, m, k, 0))
		var work units.Time
		visits := make([]int, stages)
		for _, sp := range tl.Spans {
			work += sp.End - sp.Start
			if sp.Kind == timeline.Forward {
				visits[sp.Stage]++
			}
		}
		want := units.Time(m*(stages-k)) * 6 * units.Millisecond
		if work != want {
			t.Errorf("skip %d: compute %v; want M·(S−k)·(F+B) = %v", k, work, want)
		}
		share := 1 - float64(k)/float64(stages-1)
		for s, v := range visits {
			f := float64(v) / m
			if s == 0 && v != m || s > 0 && math.Abs(f-share) > 0.02 {
				t.Errorf("skip %d: stage %d computes %d of %d microbatches; want %s", k, s, v, m, map[bool]string{true: "all", false: "a share 1 − k/(S−1)"}[s == 0])
			}
		}
		t.Logf("skip %d: compute %v (%.3f of skip 0's), visits %v", k, work, float64(work)/float64(m*stages*6e6), visits)
	}
}

// TestSkippingNeedsPeersAtTheFirstStage: every path goes through stage
// 0, so skipping alone leaves the swarm at stage 0's rate; with
// rebalancing peers move to stage 0 and the rate rises to the closed
// form min_s R_s/(f_s·(F+B)), here 500 microbatches/s against 333 with no
// skipping (two stages skipped of four, eight peers), within 5%.
func TestSkippingNeedsPeersAtTheFirstStage(t *testing.T) {
	_, plain := run(t, skipRun(nil, 8, 4, 1200, 0, 50*units.Millisecond))
	_, fixed := run(t, skipRun(nil, 8, 4, 1200, 2, 0))
	_, moved := run(t, skipRun(nil, 8, 4, 1200, 2, 50*units.Millisecond))
	for _, c := range []struct {
		name string
		r    *Record
		want float64
	}{{"no skipping", plain, 2 / 0.006}, {"skip 2, no moves", fixed, 2 / 0.006}, {"skip 2, moves", moved, 3 / 0.006}} {
		if math.Abs(c.r.Final/c.want-1) > 1e-9 || math.Abs(c.r.Measured/c.want-1) > 0.05 {
			t.Errorf("%s: closed form %.1f, measured %.1f; want %.1f", c.name, c.r.Final, c.r.Measured, c.want)
		}
		t.Logf("%s: closed form %.1f /s, measured %.1f /s, peers %v, %d moves", c.name, c.r.Final, c.r.Measured, c.r.Peers, c.r.Moves)
	}
}

// TestSkipPipeDeterministic: paths, moves and resends depend only on the
// scenario: two runs give byte-identical traces.
func TestSkipPipeDeterministic(t *testing.T) {
	s := skipRun([]float64{2, 1, 1, 1, 2, 1, 0.5, 0.5, 1, 1}, 10, 5, 300, 2, 40*units.Millisecond)
	s.Faults = []scenario.Fault{{Kind: scenario.FailStop, At: 200 * units.Millisecond, GPU: 3}}
	var traces [2]bytes.Buffer
	for i := range traces {
		tl, _ := run(t, s)
		if err := tl.WriteChromeTrace(&traces[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Error("two runs of the same scenario gave different traces")
	}
}
