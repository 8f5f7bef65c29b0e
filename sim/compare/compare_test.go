package compare_test

import (
	"bytes"
	"testing"

	"paraplay/sim/compare"
	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/timeline"
)

func simulate(t *testing.T, file, fidelity string) *timeline.Timeline {
	return kinetotest.Simulate(t, file, fidelity)
}

// measure writes GPUs gpus of tl as Kineto traces and imports them.
func measure(t *testing.T, tl *timeline.Timeline, gpus []int) (*timeline.Timeline, []kineto.RankReport) {
	t.Helper()
	traces, _ := kinetotest.Written(t, tl, gpus)
	m, err := kineto.Timeline(traces)
	if err != nil {
		t.Fatal(err)
	}
	reps, err := kineto.Analyze(traces)
	if err != nil {
		t.Fatal(err)
	}
	return m, reps
}

// TestCompareWithItself sets a simulated run beside its own Kineto traces:
// every class agrees exactly, and the combined timeline validates.
func TestCompareWithItself(t *testing.T) {
	sim := simulate(t, "llama3-8b-2x8.yaml", "analytic")
	measured, reps := measure(t, sim, []int{0, 5, 9})
	gpus, err := compare.Pairs(reps, sim)
	if err != nil {
		t.Fatal(err)
	}
	simReps, err := compare.Simulated(sim, gpus)
	if err != nil {
		t.Fatal(err)
	}
	ranks := compare.Compare(reps, simReps, gpus)
	if len(ranks) != 3 || ranks[1].GPU != 5 {
		t.Fatalf("ranks %+v", ranks)
	}
	for _, r := range ranks {
		for _, row := range r.Rows {
			if row.Measured != row.Simulated || row.Error != 0 {
				t.Errorf("rank %d %s: measured %v, simulated %v", r.Rank, row.Class, row.Measured, row.Simulated)
			}
		}
	}
	both, err := compare.Combine(measured, sim, gpus)
	if err != nil {
		t.Fatalf("the combined timeline does not validate: %v", err)
	}
	if len(both.GPUs) != 6 || both.GPUs[3].Name != "GPU 5 simulated" {
		t.Errorf("combined GPUs %+v", both.GPUs)
	}
}

// TestCompareSharedTrace sets the shared 2-rank job's rank 0 beside a
// data-parallel scenario: the combined timeline, measured and simulated
// processes, validates, and its Chrome trace is written.
func TestCompareSharedTrace(t *testing.T) {
	tr := kinetotest.Read(t, "kineto-nccl-2rank-rank0.json.gz")
	measured, err := kineto.Timeline([]*kineto.Trace{tr})
	if err != nil {
		t.Fatal(err)
	}
	reps, err := kineto.Analyze([]*kineto.Trace{tr})
	if err != nil {
		t.Fatal(err)
	}
	sim := simulate(t, "ring4.yaml", "")
	gpus, err := compare.Pairs(reps, sim)
	if err != nil {
		t.Fatal(err)
	}
	simReps, err := compare.Simulated(sim, gpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range compare.Compare(reps, simReps, gpus)[0].Rows {
		t.Logf("%-32s %14v %14v %+8.1f%%", row.Class, row.Measured, row.Simulated, 100*row.Error)
	}
	both, err := compare.Combine(measured, sim, gpus)
	if err != nil {
		t.Fatalf("the combined timeline does not validate: %v", err)
	}
	var b bytes.Buffer
	if err := both.WriteChromeTrace(&b); err != nil || !bytes.Contains(b.Bytes(), []byte("rank 0 measured")) || !bytes.Contains(b.Bytes(), []byte("GPU 0 simulated")) {
		t.Errorf("the Chrome trace lacks a process (err %v)", err)
	}
}

func TestPairsRefusesMissingRank(t *testing.T) {
	sim := simulate(t, "ring4.yaml", "")
	if _, err := compare.Pairs([]kineto.RankReport{{Rank: 7, File: "r7.json"}}, sim); err == nil {
		t.Error("rank 7 of a 4-GPU scenario was paired")
	}
}
