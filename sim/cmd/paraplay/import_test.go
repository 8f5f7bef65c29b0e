package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/timeline"
)

// readTimeline reads a timeline JSON file.
func readTimeline(t *testing.T, path string) timeline.Timeline {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tl timeline.Timeline
	if err := json.Unmarshal(data, &tl); err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestRunKinetoImportRoundTrip writes a run as one Kineto trace per GPU
// (gzipped and not) and imports them: the same GPUs, spans, collectives
// and end as the run's own timeline. No shared trace needed.
func TestRunKinetoImportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ scenario, fidelity, out string }{
		{"../../scenario/testdata/llama3-8b-2x8.yaml", "analytic", "llama.json"},
		{"../../scenario/testdata/pipeline-1f1b.yaml", "", "pipe.json.gz"},
	} {
		tlPath, back := filepath.Join(dir, c.out+".timeline"), filepath.Join(dir, c.out+".back")
		args := []string{"run", c.scenario, "--kineto", filepath.Join(dir, c.out), "--timeline", tlPath}
		if c.fidelity != "" {
			args = append(args, "--fidelity", c.fidelity)
		}
		var out, errOut bytes.Buffer
		if code := Main(args, &out, &errOut); code != 0 {
			t.Fatalf("run: exit %d: %s", code, errOut.String())
		}
		want := readTimeline(t, tlPath)
		var files []string
		for g := range want.GPUs {
			files = append(files, filepath.Join(dir, kinetoPath(c.out, g)))
		}
		if code := Main(append([]string{"import", "--timeline", back}, files...), &out, &errOut); code != 0 {
			t.Fatalf("import: exit %d: %s", code, errOut.String())
		}
		got := readTimeline(t, back)
		if !reflect.DeepEqual(got.GPUs, want.GPUs) || !reflect.DeepEqual(got.Spans, want.Spans) ||
			!reflect.DeepEqual(got.Collectives, want.Collectives) || got.End != want.End || got.Title != want.Title {
			t.Errorf("%s: the import differs from the run: %d GPUs, %d spans, %d collectives, end %v; want %d, %d, %d, %v", c.out,
				len(got.GPUs), len(got.Spans), len(got.Collectives), got.End, len(want.GPUs), len(want.Spans), len(want.Collectives), want.End)
		}
	}
}

// TestImportSharedTrace imports the shared 2-rank NCCL job's trace: the
// report lists its 21 NCCL kernels with sizes, --json parses, --trace is
// a Chrome trace with the collectives on the communication thread.
func TestImportSharedTrace(t *testing.T) {
	path := kinetotest.Path(t, "kineto-nccl-2rank-rank0.json.gz")
	trace := filepath.Join(t.TempDir(), "t.json")
	var out, errOut bytes.Buffer
	if code := Main([]string{"import", path, "--trace", trace}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"step time             222.368446ms", "NCCL kernels          21", "30764KiB", "all-reduce", "waiting on the host"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	data, _ := os.ReadFile(trace)
	if !json.Valid(data) || !bytes.Contains(data, []byte(`"cat": "collective"`)) {
		t.Error("the Chrome trace is not JSON or lacks the NCCL kernels")
	}
	out.Reset()
	if code := Main([]string{"import", "--json", path}, &out, &errOut); code != 0 {
		t.Fatalf("--json: exit %d", code)
	}
	var rep struct {
		Ranks []struct {
			NCCL []struct {
				Bytes  int64 `json:"bytes"`
				TimeNS int64 `json:"time_ns"`
			} `json:"nccl_kernels"`
		} `json:"ranks"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Ranks) != 1 || len(rep.Ranks[0].NCCL) != 21 || rep.Ranks[0].NCCL[2].Bytes != 8196000 {
		t.Errorf("--json: %v, %+v", err, rep)
	}
}

func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	truncated := filepath.Join(dir, "cut.json")
	os.WriteFile(truncated, []byte(`{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2}, {"ph"`), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"import"}, exitUsage, "want at least one trace"},
		{[]string{"import", "/no/such.json"}, exitUsage, "no such file"},
		{[]string{"import", truncated}, exitUsage, "cut.json: byte 84: the file ends in the middle of the JSON"},
		{[]string{"import", "-h"}, 0, "Kineto"},
		{[]string{"import", "../../scenario/testdata/ring4.yaml"}, exitUsage, "malformed JSON"},
	} {
		var out, errOut bytes.Buffer
		if code := Main(c.args, &out, &errOut); code != c.code || !strings.Contains(out.String()+errOut.String(), c.want) {
			t.Errorf("%v: exit %d, %s%s; want %d and %q", c.args, code, out.String(), errOut.String(), c.code, c.want)
		}
	}
}

// ncclTestsLog is an all_reduce_perf log of 8 ranks on one host whose
// times are a ring's on links of α alpha (µs) and bandwidth bw (GB/s).
func ncclTestsLog(alpha, bw float64) string {
	var b strings.Builder
	b.WriteString("# Collective test starting: all_reduce_perf\n")
	for r := range 8 {
		fmt.Fprintf(&b, "#  Rank %2d Group  0 Pid %6d on node0 device %2d [0x%02x] NVIDIA H100 80GB HBM3\n", r, 100+r, r, r)
	}
	for s := int64(1024); s <= 4<<30; s *= 4 {
		us := 14*alpha + 1.75*float64(s)/(bw*1e3)
		fmt.Fprintf(&b, "%12d %12d float sum -1 %9.2f 0 0 0 %9.2f 0 0 0\n", s, s/4, us, us)
	}
	return b.String()
}

// TestCalibrateThenRun fits nvlink4 to an nccl-tests log, writes the
// calibration, and runs a one-node all-reduce with it: the run's time is
// the ring's closed form on the fitted links (within 2%), not the
// catalog's.
func TestCalibrateThenRun(t *testing.T) {
	dir := t.TempDir()
	logPath, cal := filepath.Join(dir, "ar.log"), filepath.Join(dir, "cal.yaml")
	os.WriteFile(logPath, []byte(ncclTestsLog(6, 150)), 0o644)
	var out, errOut bytes.Buffer
	if code := Main([]string{"calibrate", "--nccl-tests", logPath, "--link", "nvlink4", "--out", cal}, &out, &errOut); code != 0 {
		t.Fatalf("calibrate: exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"α = 6µs per message, bandwidth = 150.00 GB/s", "residuals", "wrote " + cal} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("calibrate's output lacks %q:\n%s", want, out.String())
		}
	}
	scen := filepath.Join(dir, "ar.yaml")
	os.WriteFile(scen, []byte("strategy: collective\ncluster: {gpu: h100-sxm, gpus_per_node: 8}\ncollective: {size: 1GiB}\n"), 0o644)
	times := map[bool]float64{}
	for _, calibrated := range []bool{false, true} {
		args := []string{"run", scen, "--json"}
		if calibrated {
			args = append(args, "--calibration", cal)
		}
		out.Reset()
		if code := Main(args, &out, &errOut); code != 0 {
			t.Fatalf("run: exit %d: %s", code, errOut.String())
		}
		var s timeline.Summary
		json.Unmarshal(out.Bytes(), &s)
		times[calibrated] = s.IterationSeconds
	}
	want := 14*6e-6 + 1.75*float64(1<<30)/150e9
	if got := times[true]; got < 0.98*want || got > 1.02*want {
		t.Errorf("calibrated run %.6f s, want the ring on the fitted links %.6f s (uncalibrated %.6f s)", got, want, times[false])
	}
}

// TestCalibrationScalesGEMMs runs a training iteration with its GPU's GEMM
// efficiency halved: the iteration grows.
func TestCalibrationScalesGEMMs(t *testing.T) {
	dir := t.TempDir()
	cal := filepath.Join(dir, "cal.yaml")
	os.WriteFile(cal, []byte("gemm_scale: {h100-sxm: 0.5}\n"), 0o644)
	iter := map[bool]float64{}
	for _, calibrated := range []bool{false, true} {
		args := []string{"run", "../../scenario/testdata/llama3-8b-2x8.yaml", "--fidelity", "analytic", "--json"}
		if calibrated {
			args = append(args, "--calibration", cal)
		}
		var out, errOut bytes.Buffer
		if code := Main(args, &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var s timeline.Summary
		json.Unmarshal(out.Bytes(), &s)
		iter[calibrated] = float64(s.Compute)
	}
	if r := iter[true] / iter[false]; r < 1.3 || r > 2 {
		t.Errorf("compute ×%.2f with the GEMMs at half their efficiency; want between 1.3 and 2", r)
	}
}

// TestCompareCommand compares a run with its own Kineto traces (every
// error 0) and writes the Chrome trace of both.
func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	scen := "../../scenario/testdata/pipeline-1f1b.yaml"
	var out, errOut bytes.Buffer
	if code := Main([]string{"run", scen, "--kineto", filepath.Join(dir, "p.json")}, &out, &errOut); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut.String())
	}
	both := filepath.Join(dir, "both.json")
	out.Reset()
	args := []string{"compare", scen, filepath.Join(dir, "p-rank0.json"), filepath.Join(dir, "p-rank3.json"), "--trace", both}
	if code := Main(args, &out, &errOut); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "GPU 3 (simulated GPU 3") || strings.Count(out.String(), "+0.0%") < 6 {
		t.Errorf("compare's output:\n%s", out.String())
	}
	data, _ := os.ReadFile(both)
	if !json.Valid(data) || !bytes.Contains(data, []byte("GPU 0 measured")) || !bytes.Contains(data, []byte("GPU 3 simulated")) {
		t.Error("the Chrome trace of both runs lacks a process")
	}
	if code := Main([]string{"compare", "../../scenario/testdata/single-gpu-training.yaml", filepath.Join(dir, "p-rank3.json")}, &out, &errOut); code != exitUsage {
		t.Errorf("a rank the scenario lacks: exit %d", code)
	}
}
