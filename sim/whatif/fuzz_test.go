package whatif_test

import (
	"bytes"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/whatif"
)

// FuzzReplay replays any trace Read accepts under any change: an invalid
// change is an error, a valid one a replay whose timeline validates
// (kineto.Timeline checks) and whose report exists, never a panic.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(`{"traceEvents": [
	{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 250},
	{"ph": "X", "cat": "kernel", "name": "ampere_sgemm", "pid": 0, "tid": 7, "ts": 0, "dur": 100, "args": {"stream": 7, "correlation": 3}},
	{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 1, "args": {"correlation": 3}},
	{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 20, "ts": 90, "dur": 50, "args": {"stream": 20, "Collective name": "allreduce", "In msg nelems": 10, "dtype": "Float", "Group size": 4}},
	{"ph": "X", "cat": "kernel", "name": "vectorized_elementwise_kernel", "pid": 0, "tid": 7, "ts": 150, "dur": 100, "args": {"stream": 7}}]}`), 2.0, 0.5, 3.0, 8, true, false)
	f.Fuzz(func(t *testing.T, data []byte, compute, memory, network float64, group int, overlap, hostFixed bool) {
		tr, err := kineto.Read(bytes.NewReader(data), "fuzz.json", kineto.Limits{MaxBytes: 1 << 16, MaxValue: 1 << 12, MaxEvents: 256})
		if err != nil {
			return
		}
		c := whatif.Change{Compute: compute, Memory: memory, Network: network, Group: group, Overlap: overlap, HostFixed: hostFixed}
		out, err := whatif.Replay([]*kineto.Trace{tr}, c)
		if (err != nil) != (c.Validate() != nil) {
			t.Fatalf("Replay: %v; Validate: %v", err, c.Validate())
		}
		if err != nil {
			return
		}
		if _, err := kineto.Timeline(out); err != nil {
			t.Fatalf("the replay does not convert: %v", err)
		}
		if _, err := kineto.Analyze(out); err != nil {
			t.Fatal(err)
		}
	})
}
