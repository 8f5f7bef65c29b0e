//go:build !js

package kineto_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"paraplay/sim/kineto"
)

// fuzzLimits keep each fuzzed input small and fast.
var fuzzLimits = kineto.Limits{MaxBytes: 1 << 16, MaxValue: 1 << 12, MaxEvents: 256}

// FuzzRead feeds arbitrary bytes to Read: it must return a trace or an
// error, never panic or hang; a trace it returns must convert into a
// timeline that Validate accepts (Timeline validates), be analysed, and
// write as a rank's trace that reads back.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		`{"traceEvents": []}`,
		`{"distributedInfo": {"rank": 0, "world_size": 2}, "deviceProperties": [{"id": 0, "name": "A100", "numSms": 108}], "traceEvents": [
		{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 9, "tid": 9, "ts": 10, "dur": 100},
		{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 9, "tid": 9, "ts": 11, "dur": 5, "args": {"External id": 3, "Input Dims": [[8, 16], [16, 4]], "Input type": ["float", "float"]}},
		{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 12, "dur": 1, "args": {"correlation": 5}},
		{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_32x128_tn", "pid": 0, "tid": 7, "ts": 14.5, "dur": 3.25, "args": {"correlation": 5, "stream": 7}},
		{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 20, "ts": 15, "dur": 30, "args": {"Collective name": "allreduce", "In msg nelems": 100, "dtype": "Float", "Group size": 2}},
		{"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 8, "ts": 16, "dur": 1, "args": {"bytes": 8}},
		{"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}}]}`,
		`{"paraplay": {"title": "t", "fidelity": "analytic", "gpu": 1, "name": "GPU 1"}, "traceEvents": [
		{"ph": "X", "cat": "kernel", "name": "F0", "pid": 0, "tid": 7, "ts": 0, "dur": 1, "args": {"paraplay kind": "forward", "paraplay microbatch": 0, "paraplay stage": 0, "paraplay iteration": 0}},
		{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_RING", "pid": 0, "tid": 20, "ts": 1, "dur": 2, "args": {"Collective name": "allreduce", "In msg nelems": 64, "dtype": "Byte", "Group size": 2, "paraplay collective": 0, "paraplay op": "all_reduce", "paraplay ranks": [0, 1]}}]}`,
		`{"traceEvents": [{"ph": "X", "ts": 1e3, "dur": "2"}]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan bool)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(fmt.Sprintf("hang on %q", data))
			}
		}()
		defer close(done)
		tr, err := kineto.Read(bytes.NewReader(data), "fuzz.json", fuzzLimits)
		if err != nil {
			return
		}
		tl, err := kineto.Timeline([]*kineto.Trace{tr})
		if err != nil {
			t.Fatalf("a trace Read accepts does not convert: %v", err)
		}
		if _, err := kineto.Analyze([]*kineto.Trace{tr}); err != nil {
			t.Fatal(err)
		}
		for g := range tl.GPUs {
			var b bytes.Buffer
			if err := kineto.WriteRank(&b, tl, g); err != nil {
				t.Fatal(err)
			}
			if _, err := kineto.Read(&b, "again.json", kineto.Limits{}); err != nil {
				t.Fatalf("a written rank does not read back: %v", err)
			}
		}
	})
}
