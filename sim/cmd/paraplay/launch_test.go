package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmitAndImport: the best plan's Megatron-LM line and torchtitan job
// file, run with --from-megatron and --from-torchtitan, simulate to the
// planner's own iteration time.
func TestEmitAndImport(t *testing.T) {
	var planOut, errOut bytes.Buffer
	if code := Main(append(smallPlan, "--json", "--top", "1", "--quiet"), &planOut, &errOut); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, errOut.String())
	}
	var plans struct {
		Plans []struct {
			Iteration float64 `json:"iteration_time_s"`
		} `json:"plans"`
	}
	if err := json.Unmarshal(planOut.Bytes(), &plans); err != nil || len(plans.Plans) == 0 {
		t.Fatalf("plan JSON: %v", err)
	}
	want := plans.Plans[0].Iteration
	for _, format := range []string{"megatron", "torchtitan"} {
		var emitted bytes.Buffer
		errOut.Reset()
		if code := Main(append(smallPlan, "--emit", format, "--quiet"), &emitted, &errOut); code != 0 {
			t.Errorf("--emit %s: exit %d: %s", format, code, errOut.String())
			continue
		}
		args := []string{"run", "--json", "--from-megatron", emitted.String()}
		if format == "torchtitan" {
			file := filepath.Join(t.TempDir(), "job.toml")
			if err := os.WriteFile(file, emitted.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			args = []string{"run", "--json", "--from-torchtitan", file, "--gpus-per-node", "4"}
		}
		var runOut bytes.Buffer
		errOut.Reset()
		if code := Main(args, &runOut, &errOut); code != 0 {
			t.Errorf("%s import: exit %d: %s\n%s", format, code, errOut.String(), emitted.String())
			continue
		}
		var sum struct {
			Iteration float64 `json:"iteration_time_s"`
		}
		if err := json.Unmarshal(runOut.Bytes(), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Iteration != want {
			t.Errorf("%s: the imported plan runs %v s; the planner's best ran %v s", format, sum.Iteration, want)
		}
	}
}

// TestEmitDeepSpeed: the DeepSpeed config goes to stdout, what the model
// code must set to stderr.
func TestEmitDeepSpeed(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main(append(smallPlan, "--emit", "deepspeed", "--quiet"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var c map[string]any
	if err := json.Unmarshal(out.Bytes(), &c); err != nil || c["zero_optimization"] == nil || c["train_batch_size"] != 16.0 {
		t.Errorf("config %s (%v); want JSON with zero_optimization and train_batch_size 16", out.String(), err)
	}
}

// TestLaunchBadInput: bad --emit values, unknown Megatron-LM flags and a
// file with a scenario are named.
func TestLaunchBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(append([]string{}, smallPlan...), "--emit", "jax"), `--emit: "jax"; allowed megatron, torchtitan, deepspeed`},
		{append(append([]string{}, smallPlan...), "--emit", "megatron", "--json"), "--emit: and --json"},
		{[]string{"run", "--from-megatron", "torchrun --nnodes 1 --nproc-per-node 8 pretrain_gpt.py --frob 2 --bf16"}, "--frob"},
		{[]string{"run", "--from-megatron", "--bf16"}, "torchrun --nnodes"},
		{[]string{"run", "x.yaml", "--from-megatron", "--bf16"}, "want exactly one scenario file or one --from-megatron"},
		{[]string{"run", "--from-torchtitan", "/nonexistent.toml"}, "nonexistent"},
	} {
		var errOut bytes.Buffer
		if code := Main(c.args, io.Discard, &errOut); code != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d naming %q", c.args, code, errOut.String(), exitUsage, c.want)
		}
	}
}
