//go:build !js

package swarm

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// swarmRun is n peers of the given speeds (nil: all 1) over stages
// stages, training m microbatches of F = 2 ms and B = 4 ms on fast links.
func swarmRun(speeds []float64, n, stages, m int, rebalance units.Time) scenario.Scenario {
	s := scenario.Default()
	s.Strategy, s.GPUs = Name, n
	s.Sync.Speeds = speeds
	scenario.Put(&s, section, Settings{Stages: stages, Microbatches: m, Rebalance: rebalance, Activation: units.MiB, StageBytes: 64 * units.MiB})
	return s
}

func run(t *testing.T, s scenario.Scenario) (*timeline.Timeline, *Record) {
	t.Helper()
	tl := strategytest.MustRun(t, Simulate, s)
	return tl, tl.Extra[Name].(*Record)
}

// best is the highest min_s R_s / (F+B) over every placement of the
// peers on the stages (brute force, S^n placements).
func best(speeds []float64, stages int, fb units.Time) float64 {
	n, top := len(speeds), 0.0
	place := make([]int, n)
	for {
		r := make([]float64, stages)
		for j, s := range place {
			r[s] += speeds[j]
		}
		top = max(top, slices.Min(r))
		j := 0
		for ; j < n && place[j] == stages-1; j++ {
			place[j] = 0
		}
		if j == n {
			return top / fb.Seconds()
		}
		place[j]++
	}
}

// TestRateIsTheSlowestStage: the measured rate of the run's second half
// is the closed form X = min_s R_s/(F+B) within 5%.
func TestRateIsTheSlowestStage(t *testing.T) {
	for _, c := range []struct {
		name   string
		speeds []float64
		n, st  int
	}{
		{"8 equal peers, 4 stages", nil, 8, 4},
		{"8 mixed peers, 4 stages", []float64{2, 1, 1, 1, 2, 1, 0.5, 0.5}, 8, 4},
		{"6 mixed peers, 3 stages", []float64{1, 0.5, 2, 1, 1, 0.25}, 6, 3},
		{"12 peers, 2 stages", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.3}, 12, 2},
	} {
		_, r := run(t, swarmRun(c.speeds, c.n, c.st, 400, 0))
		if e := math.Abs(r.Measured/r.Final - 1); e > 0.05 {
			t.Errorf("%s: measured %.2f microbatches/s, closed form %.2f (error %.1f%%, want ≤ 5%%)", c.name, r.Measured, r.Final, 100*e)
		}
		t.Logf("%s: measured %.2f /s, min_s R_s/(F+B) %.2f /s", c.name, r.Measured, r.Final)
	}
}

// TestRebalancingReachesTheBestPlacement: peers dealt to stages in turn
// leave the mixed swarm's slowest stage at 1.5 (summed speed); moving
// peers raises it to 2, the best any placement reaches (brute force),
// and the measured rate follows within 5%. Moves alone do not always
// reach the best placement: with speeds 2,2,1,1,2,2,1,1 on four stages
// (4, 4, 2, 2) no single move raises a slowest stage without leaving
// another at 2, while swapping a 2 for a 1 would reach 3
// (TestMovesStopShortOfSwaps).
func TestRebalancingReachesTheBestPlacement(t *testing.T) {
	for _, c := range []struct {
		speeds []float64
		stages int
	}{{[]float64{2, 1, 1, 1, 2, 1, 0.5, 0.5}, 4}, {[]float64{2, 1, 1, 2, 0.5, 0.5}, 3}} {
		speeds := c.speeds
		s := swarmRun(speeds, len(speeds), c.stages, 1200, 50*units.Millisecond)
		_, r := run(t, s)
		want := best(speeds, c.stages, 6*units.Millisecond)
		if math.Abs(r.Final/want-1) > 1e-9 || r.Final <= r.Initial {
			t.Errorf("%v: closed form %.2f at the start, %.2f after %d moves; want the best placement's %.2f", speeds, r.Initial, r.Final, r.Moves, want)
		}
		if e := math.Abs(r.Measured/r.Final - 1); e > 0.05 {
			t.Errorf("%v: measured %.2f /s after rebalancing, closed form %.2f (error %.1f%%)", speeds, r.Measured, r.Final, 100*e)
		}
		t.Logf("%v: %.2f → %.2f /s in %d moves (best %.2f); measured %.2f, peers %v", speeds, r.Initial, r.Final, r.Moves, want, r.Measured, r.Peers)
	}
}

// TestFailedPeerIsReplaced: nine equal peers on four stages (3, 2, 2,
// 2); a peer of stage 1 stops, leaving it one; a peer of stage 0 moves
// there, drawn as a replanning band, and every microbatch still finishes.
// Same seed, byte-identical trace.
func TestFailedPeerIsReplaced(t *testing.T) {
	s := swarmRun(nil, 9, 4, 600, 100*units.Millisecond)
	s.Faults = []scenario.Fault{{Kind: scenario.FailStop, At: 500 * units.Millisecond, GPU: 1}}
	var traces [2]bytes.Buffer
	var tl *timeline.Timeline
	var r *Record
	for i := range traces {
		tl, r = run(t, s)
		if err := tl.WriteChromeTrace(&traces[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(traces[0].Bytes(), traces[1].Bytes()) {
		t.Error("two runs of the same scenario gave different traces")
	}
	moved := slices.ContainsFunc(tl.States, func(st timeline.State) bool { return st.State == timeline.StateReplan && st.Group == "stage 1" })
	if !moved || r.Lost == 0 || r.Peers[1] != -1 || r.Final != 2/0.006 {
		t.Errorf("moved to stage 1 %v, lost %d, peers %v, final %.1f; want a move, lost > 0, peer 1 failed, 2 peers a stage (333.3 /s)", moved, r.Lost, r.Peers, r.Final)
	}
	var b int
	for _, sp := range tl.Spans {
		if sp.Kind == timeline.Backward && sp.Stage == 0 {
			b++
		}
	}
	if b < 600 {
		t.Errorf("%d microbatches finished their backward at stage 0; want 600", b)
	}
	t.Logf("lost %d, moves %d, peers %v, measured %.1f /s, closed form %.1f", r.Lost, r.Moves, r.Peers, r.Measured, r.Final)
}

// TestFaultAfterTheRun: a peer that fails after the last microbatch
// finished changes nothing, and no state lies outside the run (the
// fuzzer found a failed state at 60 s in a 1.2 s run).
func TestFaultAfterTheRun(t *testing.T) {
	s := swarmRun(nil, 8, 2, 16, 0)
	clean, _ := run(t, s)
	s.Faults = []scenario.Fault{{Kind: scenario.FailStop, At: 60 * units.Second, GPU: 5}}
	tl, _ := run(t, s)
	if tl.End != clean.End || len(tl.States) != 0 {
		t.Errorf("end %v with %d states; want %v and none, as without the fault", tl.End, len(tl.States), clean.End)
	}
}

// TestBadSwarmInput: each bad value is refused with an error naming its
// key and the allowed range.
func TestBadSwarmInput(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"swarm: {stages: 1}", "swarm.stages: is 1; allowed 2..4"},
		{"swarm: {stages: 5}", "swarm.stages: is 5; allowed 2..4"},
		{"swarm: {microbatches: 0}", "swarm.microbatches: is 0; allowed 1..4096"},
		{"swarm: {rebalance: 1us}", "swarm.rebalance"},
		{"swarm: {activation: 2GiB}", "swarm.activation"},
		{"sync: {speeds: '1,1'}", "sync.speeds"},
		{"faults: [{kind: link_degrade, node: 0, factor: 0.5}]", "faults: has a link_degrade"},
		{"swarm: {stages: 0}", "swarm.stages: is 0; allowed 2..4"},
		{"swarm: {stage_bytes: -1}", "swarm.stage_bytes"},
		{"swarm: {skip: 3}", "swarm.skip: is 3; allowed 0..2"},
	} {
		_, err := scenario.Parse([]byte("strategy: swarm\ngpus: 4\n" + c.yaml + "\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one containing %q", c.yaml, err, c.want)
		}
	}
}

// TestEmptyStageIsAnError: a stage whose only peer stops, with no
// rebalancing, leaves microbatches that can never finish: a clear error.
func TestEmptyStageIsAnError(t *testing.T) {
	s := swarmRun(nil, 4, 4, 50, 0)
	s.Faults = []scenario.Fault{{Kind: scenario.FailStop, At: 10 * units.Millisecond, GPU: 2}}
	if _, err := strategytest.Run(Simulate, s); err == nil || !strings.Contains(err.Error(), "swarm.rebalance") {
		t.Errorf("error %v; want one naming swarm.rebalance", err)
	}
}

// TestMovesStopShortOfSwaps: the limit of moving one peer at a time
// (see TestRebalancingReachesTheBestPlacement): no move happens, and the
// rate stays at the placement's closed form, 2/(F+B), under the best's 3.
func TestMovesStopShortOfSwaps(t *testing.T) {
	speeds := []float64{2, 2, 1, 1, 2, 2, 1, 1}
	_, r := run(t, swarmRun(speeds, 8, 4, 600, 50*units.Millisecond))
	if r.Moves != 0 || r.Final != 2/0.006 || best(speeds, 4, 6*units.Millisecond) != 3/0.006 {
		t.Errorf("moves %d, closed form %.1f; want 0 moves at 333.3 /s (the best placement's 500 /s needs a swap)", r.Moves, r.Final)
	}
}
