package whatif_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/units"
	"paraplay/sim/whatif"
)

// twoGEMMs is one profiler step of 250 µs (+gap): GEMM A (100 µs) on
// stream 7, then an all-reduce over 4 ranks (50 µs) on stream 20 that
// starts as A ends, then GEMM B (100 µs) on stream 7, gap µs after the
// all-reduce ends: B waits for the all-reduce.
func twoGEMMs(t *testing.T, gap int) *kineto.Trace {
	t.Helper()
	b := 150 + gap
	js := fmt.Sprintf(`{"distributedInfo": {"rank": 0, "world_size": 4}, "traceEvents": [
	{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": %d},
	{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 0, "dur": 100, "args": {"stream": 7, "device": 0}},
	{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 20, "ts": 100, "dur": 50, "args": {"stream": 20, "device": 0, "Collective name": "allreduce", "In msg nelems": 1000, "dtype": "Float", "Group size": 4}},
	{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": %d, "dur": 100, "args": {"stream": 7, "device": 0}}]}`, b+100, b)
	tr, err := kineto.Read(strings.NewReader(js), "two-gemms.json", kineto.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// stepOf replays tr under c and returns its one step's length.
func stepOf(t *testing.T, tr *kineto.Trace, c whatif.Change) units.Time {
	t.Helper()
	out, err := whatif.Replay([]*kineto.Trace{tr}, c)
	if err != nil {
		t.Fatal(err)
	}
	reps, err := kineto.Analyze(out)
	if err != nil {
		t.Fatal(err)
	}
	return reps[0].StepTime
}

// TestReplayClosedForms checks each change against the step it must give
// on twoGEMMs: A + AR + gap + B with the changed times.
func TestReplayClosedForms(t *testing.T) {
	us := units.Microsecond
	a100, _ := hw.LookupGPU("a100-sxm-40gb")
	h100, _ := hw.LookupGPU("h100-sxm")
	peak := h100.PeakFLOPS / a100.PeakFLOPS
	gemmOnH100 := units.Time(math.Round(float64(100*us) / peak))
	for _, tc := range []struct {
		name   string
		gap    int
		change whatif.Change
		want   units.Time
	}{
		{"nothing changed", 0, whatif.Change{}, 250 * us},
		{"nothing changed, a gap", 10, whatif.Change{}, 260 * us},
		{"GEMMs twice as fast", 0, whatif.Change{Compute: 2}, 50*us + 50*us + 50*us},
		{"network twice as fast", 0, whatif.Change{Network: 2}, 100*us + 25*us + 100*us},
		{"network twice as fast, the gap kept", 10, whatif.Change{Network: 2}, 100*us + 25*us + 10*us + 100*us},
		{"memory-bound kernels faster: none here", 0, whatif.Change{Memory: 3}, 250 * us},
		{"overlap: B no longer waits", 0, whatif.Change{Overlap: true}, 200 * us},
		{"overlap with a gap: the gap is kept", 10, whatif.Change{Overlap: true}, 100*us + 10*us + 100*us},
		// ring: t ∝ (n−1)/n, so 4 → 8 ranks is × (7/8)/(3/4) = 7/6.
		{"group of 8 instead of 4", 0, whatif.Change{Group: 8}, 200*us + units.Time(math.Round(float64(50*us)*7/6))},
		{"A100 to H100: GEMMs by the peak ratio", 0, whatif.FromGPUs(a100, h100), 2*gemmOnH100 + 50*us},
		{"a slower network", 0, whatif.Change{Network: 0.5}, 300 * us},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stepOf(t, twoGEMMs(t, tc.gap), tc.change); got != tc.want {
				t.Errorf("step = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHostFixed: GEMM A (100 µs), then GEMM B launched by the host at
// 145..150 µs and starting at 150. Twice as fast, B follows A at 100 µs
// when the host follows its GPU (a step of 150 µs), but waits for its
// launch at 150 µs when the host is as measured (200 µs).
func TestHostFixed(t *testing.T) {
	js := `{"traceEvents": [
	{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 250},
	{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 0, "dur": 100, "args": {"stream": 7, "device": 0}},
	{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 145, "dur": 5, "args": {"correlation": 9}},
	{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 150, "dur": 100, "args": {"stream": 7, "device": 0, "correlation": 9}}]}`
	tr, err := kineto.Read(strings.NewReader(js), "host.json", kineto.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	us := units.Microsecond
	for _, c := range []struct {
		change whatif.Change
		want   units.Time
	}{
		{whatif.Change{HostFixed: true}, 250 * us},
		{whatif.Change{Compute: 2}, 150 * us},
		{whatif.Change{Compute: 2, HostFixed: true}, 200 * us},
		{whatif.Change{Compute: 0.5, HostFixed: true}, 450 * us}, // slower: the launch no longer binds
	} {
		if got := stepOf(t, tr, c.change); got != c.want {
			t.Errorf("%+v: step %v, want %v", c.change, got, c.want)
		}
	}
}

// TestValidate names the field and its range.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		c    whatif.Change
		want string
	}{
		{whatif.Change{Compute: -1}, "compute is -1; allowed 0 (unchanged) or 0.01..1000"},
		{whatif.Change{Network: math.NaN()}, "network is NaN"},
		{whatif.Change{Memory: 1e9}, "memory is 1e+09"},
		{whatif.Change{Group: 1}, "group is 1; allowed 0 (unchanged) or 2..1048576"},
	} {
		_, err := whatif.Replay(nil, tc.c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want it to say %q", tc.c, err, tc.want)
		}
	}
}

// TestIdentityReplayIsExact replays the shared traces with nothing
// changed: every kernel and step where it was, to the nanosecond.
func TestIdentityReplayIsExact(t *testing.T) {
	for _, name := range []string{"kineto-a100-128rank-rank0.json.gz", "kineto-a100-128rank-rank1.json.gz", "kineto-nccl-2rank-rank0.json.gz"} {
		tr := kinetotest.Read(t, name)
		for _, c := range []whatif.Change{{}, {HostFixed: true}, {Compute: 1, Memory: 1, Network: 1}} {
			out, err := whatif.Replay([]*kineto.Trace{tr}, c)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out[0].Kernels, tr.Kernels) {
				t.Errorf("%s, %+v: the identity replay moved kernels", name, c)
			}
			if !slices.Equal(out[0].Steps, tr.Steps) {
				t.Errorf("%s, %+v: steps %v, want %v", name, c, out[0].Steps, tr.Steps)
			}
		}
	}
}

// TestFasterNeverSlower replays the shared traces with every kind of
// kernel faster: no step may grow, and none may shrink below the measured
// step divided by the speed-up.
func TestFasterNeverSlower(t *testing.T) {
	for _, name := range []string{"kineto-a100-128rank-rank0.json.gz", "kineto-nccl-2rank-rank0.json.gz"} {
		tr := kinetotest.Read(t, name)
		m, _ := kineto.Analyze([]*kineto.Trace{tr})
		for _, x := range []float64{1.5, 4} {
			got := stepOf(t, tr, whatif.Change{Compute: x, Memory: x, Network: x})
			if got > m[0].StepTime || float64(got) < float64(m[0].StepTime)/x {
				t.Errorf("%s, all ×%v: step %v, want in [%v/%v, %v]", name, x, got, m[0].StepTime, x, m[0].StepTime)
			}
		}
	}
}
