package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// TestAuditInputsRefusedByName runs issue 19's audit inputs that crashed,
// hung or panicked (testdata/audit): each is now refused at validation,
// exit 2, naming the field to change, on the command line and under the
// browser's budget.
func TestAuditInputsRefusedByName(t *testing.T) {
	for _, c := range []struct {
		file, field, browser string
	}{
		{"ring512-chunks64.yaml", "collective.chunks", "collective.chunks"},
		{"training-4096-detailed.yaml", "fidelity", "fidelity"},
		{"training-65536-detailed.yaml", "fidelity", "fidelity"},
		{"training-65536-mb4096.yaml", "parallel.microbatches", "parallel.microbatches"},
		{"failures-8192-nodes.yaml", "failures.rate_per_node_day", "failures.rate_per_node_day"},
		{"failures-4096-gpus.yaml", "failures.rate_per_node_day", "failures.rate_per_node_day"},
		{"iterations64-mb4096.yaml", "parallel.microbatches", "fidelity"},
		{"efficiency-1e-300.yaml", "training.efficiency", "training.efficiency"},
		{"inference-efficiency-1e-300.yaml", "training.efficiency", "training.efficiency"},
		{"largest-shape.yaml", "model", "model"},
		{"checkpoint-1us.yaml", "recovery.checkpoint_interval", "recovery.checkpoint_interval"},
	} {
		t.Run(c.file, func(t *testing.T) {
			file := filepath.Join("testdata", "audit", c.file)
			var out, errOut bytes.Buffer
			if code := Main([]string{"run", file}, &out, &errOut); code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr: %s", code, exitUsage, errOut.String())
			}
			if got := errOut.String(); !strings.Contains(got, "  "+c.field+": ") {
				t.Errorf("stderr %q names no %s", got, c.field)
			}
			if err := browserCheck(t, file); err == nil || !strings.HasPrefix(err.Error(), c.browser+": ") {
				t.Errorf("under the browser's budget: got %v, want a refusal of %s", err, c.browser)
			}
		})
	}
}

// browserCheck is what the web app checks before it runs a scenario file.
func browserCheck(t *testing.T, file string) error {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		return err
	}
	if s.Failures.Duration > 0 {
		return budget.Browser.Check(training.LongWork(s, s.Failures.Duration))
	}
	return run.Check(s, budget.Browser)
}

// TestBudgetFlag: --budget browser refuses what the command line runs,
// a raised budget lets it through, and a malformed one is a usage error.
func TestBudgetFlag(t *testing.T) {
	ring := "../../scenario/testdata/ring8-jitter.yaml"
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", ring, "--budget", "transfers=100"}, exitUsage, "gpus: 8 GPUs (ring all-reduce) = 112 transfers; --budget allows 100: use fewer GPUs"},
		{[]string{"run", ring, "--budget", "transfers=1k,memory=1GiB"}, 0, "iteration time"},
		{[]string{"run", ring, "--budget", "browser"}, 0, "iteration time"},
		{[]string{"run", ring, "--budget", "spans"}, exitUsage, "not key=value"},
		{[]string{"run", ring, "--budget", "gpus=4"}, exitUsage, `unknown key "gpus"`},
		{[]string{"run", ring, "--budget", "events=-1"}, exitUsage, "want a count > 0"},
		{[]string{"run", "testdata/audit/checkpoint-1us.yaml", "--duration", "100000d"}, exitUsage, "--duration is 100000d; allowed up to 365d"},
		{[]string{"collective", "--algo", "ring", "--nodes", "512", "--gpus-per-node", "8", "--gpu", "h100-sxm", "--size", "1G", "--fidelity", "detailed"},
			exitUsage, "--fidelity: 4096 GPUs (ring all-reduce) = 67.1 M transfers; the command line allows 10 M"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "65536", "--global-batch", "65536"}, exitUsage, "--gpus: is 65536; allowed 1..16384"},
	} {
		var out, errOut bytes.Buffer
		code := Main(c.args, &out, &errOut)
		if code != c.code || !strings.Contains(out.String()+errOut.String(), c.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit %d and %q", c.args, code, out.String(), errOut.String(), c.code, c.want)
		}
	}
}

// TestBrowserBudgetIsSmaller: a 512-GPU ring all-reduce (8 channels: two
// messages a GPU a step, one over NVLink, one through its NIC) fits the command
// line's budget and not the browser's, which names the GPUs.
func TestBrowserBudgetIsSmaller(t *testing.T) {
	s := scenario.Default()
	s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 64, GPUsPerNode: 8}
	if err := run.Check(s, budget.CLI); err != nil {
		t.Fatalf("the command line refuses it: %v", err)
	}
	err := run.Check(s, budget.Browser)
	if err == nil || !strings.Contains(err.Error(), "gpus: 512 GPUs (ring all-reduce) = 1.05 M transfers; the browser allows 200 k") {
		t.Errorf("the browser: got %v", err)
	}
}

// TestMicrosecondCheckpointsWithACost: with the default 30 s checkpoint
// cost, a checkpoint every microsecond for a year is 2.1 M phases: the
// command line replays it (in seconds), the browser refuses it by name.
func TestMicrosecondCheckpointsWithACost(t *testing.T) {
	if testing.Short() {
		t.Skip("a year of 1 M checkpoints")
	}
	data, err := os.ReadFile("testdata/audit/checkpoint-1us.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "costly.yaml")
	if err := os.WriteFile(file, bytes.ReplaceAll(data, []byte("checkpoint_cost: 0s"), []byte("checkpoint_cost: 30s")), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Main([]string{"run", file, "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if err := browserCheck(t, file); err == nil || !strings.HasPrefix(err.Error(), "recovery.checkpoint_interval: ") {
		t.Errorf("the browser: %v, want a refusal of recovery.checkpoint_interval", err)
	}
}
