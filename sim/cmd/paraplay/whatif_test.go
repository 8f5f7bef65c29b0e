package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/kineto/kinetotest"
)

// oneStep is a profiler step of 250 µs: GEMM A (100 µs), an all-reduce
// (50 µs) as A ends, GEMM B (100 µs) as the all-reduce ends.
const oneStep = `{"distributedInfo": {"rank": 0, "world_size": 4}, "traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 250},
{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 0, "dur": 100, "args": {"stream": 7, "device": 0}},
{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 20, "ts": 100, "dur": 50, "args": {"stream": 20, "device": 0, "Collective name": "allreduce", "In msg nelems": 1000, "dtype": "Float", "Group size": 4}},
{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 150, "dur": 100, "args": {"stream": 7, "device": 0}}]}`

// TestWhatifCommand replays a step whose what-ifs have closed forms: a
// network twice as fast makes 100 + 25 + 100 µs of 250; the JSON says the
// same, and --trace writes both runs as a valid timeline.
func TestWhatifCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "step.json")
	if err := os.WriteFile(path, []byte(oneStep), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	both := filepath.Join(dir, "both.json")
	if code := Main([]string{"whatif", path, "--network", "2", "--trace", both}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"what if: NCCL kernels ×2 faster", "host follows", "host fixed", "step", "250µs", "225µs", "-10.0%"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	data, err := os.ReadFile(both)
	if err != nil || !bytes.Contains(data, []byte("what-if")) {
		t.Errorf("--trace: %v, want a trace naming the what-if process", err)
	}
	out.Reset()
	if code := Main([]string{"whatif", path, "--overlap", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut.String())
	}
	var raw struct {
		Ranks []struct {
			Rows []struct {
				Class     string `json:"class"`
				Measured  int64  `json:"measured_ns"`
				Simulated int64  `json:"whatif_host_follows_ns"`
			} `json:"rows"`
		} `json:"ranks"`
	}
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if r := raw.Ranks[0].Rows[0]; r.Class != "step" || r.Measured != 250_000 || r.Simulated != 200_000 {
		t.Errorf("--overlap: row %+v, want step 250000 → 200000 ns", r)
	}
}

// TestWhatifErrors: a bad change or GPU is exit 2 with a message naming it.
func TestWhatifErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "step.json")
	if err := os.WriteFile(path, []byte(oneStep), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--group", "1"}, "group is 1; allowed 0 (unchanged) or 2..1048576"},
		{[]string{"--network", "-2"}, "network is -2"},
		{[]string{"--gpu", "h100-sxm"}, "say which GPU they ran on with --from"},
		{[]string{"--gpu", "nope", "--from", "a100-sxm-40gb"}, `unknown GPU "nope"`},
		{[]string{"--from", "a100-sxm-40gb"}, "give --gpu too"},
	} {
		var out, errOut bytes.Buffer
		code := Main(append([]string{"whatif", path}, c.args...), &out, &errOut)
		if code != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut.String(), exitUsage, c.want)
		}
	}
}

// TestWhatifSharedGPU replays the shared NCCL trace on an H100: its
// deviceProperties name the A100, compute shrinks, the step does too.
func TestWhatifSharedGPU(t *testing.T) {
	path := kinetotest.Path(t, "kineto-nccl-2rank-rank0.json.gz")
	var out, errOut bytes.Buffer
	if code := Main([]string{"whatif", path, "--gpu", "h100-sxm", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rep struct {
		Explanation string `json:"explanation"`
		Ranks       []struct {
			Rows []struct {
				Class     string `json:"class"`
				Measured  int64  `json:"measured_ns"`
				Simulated int64  `json:"whatif_host_follows_ns"`
			} `json:"rows"`
		} `json:"ranks"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Explanation, "h100-sxm instead of a100-sxm-40gb") {
		t.Errorf("explanation %q, want it to name both GPUs", rep.Explanation)
	}
	for _, r := range rep.Ranks[0].Rows {
		if (r.Class == "step" || r.Class == "compute") && !(r.Simulated < r.Measured) {
			t.Errorf("%s: what-if %d ns, want below the measured %d ns", r.Class, r.Simulated, r.Measured)
		}
	}
}
