package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// smallPlan is a search that finishes in about a second.
var smallPlan = []string{"plan", "--model", "llama3-8b", "--gpus", "8", "--gpus-per-node", "4", "--seq-len", "2048",
	"--global-batch", "16", "--max-micro-batch", "2", "--workers", "2"}

func TestPlanJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main(append(smallPlan, "--json", "--top", "0", "--detailed-top", "1"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "100%") {
		t.Errorf("no progress bar on stderr: %q", errOut.String())
	}
	var got struct {
		Plans []map[string]any `json:"plans"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Plans) < 100 {
		t.Fatalf("%d plans; want every plan with --top 0", len(got.Plans))
	}
	best := got.Plans[0]
	for _, k := range []string{"parallel.dp", "parallel.tp", "parallel.pp", "parallel.schedule", "parallel.zero",
		"parallel.recompute", "model.preset", "iteration_time_s", "mfu", "peak_memory_bytes", "fits", "why", "query"} {
		if _, ok := best[k]; !ok {
			t.Errorf("best plan has no %q: %v", k, best)
		}
	}
	if best["status"] != "best" || best["fits"] != true || best["detailed_iteration_time_s"] == nil {
		t.Errorf("first plan %v; want the best, fitting, re-simulated in detail", best)
	}
	last := -1.0
	for _, p := range got.Plans {
		it, ok := p["iteration_time_s"].(float64)
		if !ok {
			break // the simulated plans come first
		}
		if it < last {
			t.Errorf("plans out of order: %v after %v", it, last)
		}
		last = it
	}
}

func TestPlanTextAndCSV(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main(append(smallPlan, "--top", "3", "--quiet"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{"plans:", "out of memory", "why the others lost:", "best plan as a scenario:", "   1  "} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	if errOut.Len() != 0 {
		t.Errorf("--quiet still wrote %q", errOut.String())
	}
	out.Reset()
	if code := Main(append(smallPlan, "--top", "5", "--csv", "--quiet"), &out, io.Discard); code != 0 {
		t.Fatalf("csv: exit %d", code)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 || rows[0][0] != "rank" || rows[1][1] != "best" {
		t.Errorf("csv: %d rows, first %v, %v; want a header and 5 plans, the best first", len(rows), rows[0], rows[1])
	}
}

func TestPlanBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--gpus", "64", "--global-batch", "8"}, "--model"},
		{[]string{"plan", "--model", "llama3-8b", "--global-batch", "8"}, "--gpus: is 0"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "12", "--global-batch", "8"}, "a multiple of --gpus-per-node"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "0"}, "--global-batch: is 0; allowed 1.."},
		{[]string{"plan", "--model", "nope", "--gpus", "8", "--global-batch", "8"}, "--model"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "8", "--gpu", "nope"}, "--gpu"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "8", "--detailed-top", "99"}, "--detailed-top: is 99; allowed 0..16"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "8", "--max-simulations", "-1"}, "--max-simulations: is -1; allowed 0.."},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "8", "--max-micro-batch", "-1"}, "--max-micro-batch"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "8", "--json", "--csv"}, "--csv"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "8", "--seq-len", "-4"}, "--seq-len"},
		{[]string{"plan", "--model", "llama3-8b", "--gpus", "8", "--global-batch", "3", "--gpus-per-node", "8"}, ""},
		{[]string{"plan", "--bogus"}, "bogus"},
	} {
		var errOut bytes.Buffer
		code := Main(c.args, io.Discard, &errOut)
		if c.want == "" { // a valid command line that finds a plan
			if code != 0 {
				t.Errorf("%v: exit %d: %s", c.args, code, errOut.String())
			}
			continue
		}
		if code != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d naming %q", c.args, code, errOut.String(), exitUsage, c.want)
		}
	}
}

// FuzzPlanFlags: any command line gives a config or errors that name a
// flag, never a panic.
func FuzzPlanFlags(f *testing.F) {
	f.Add("--model llama3-70b --gpus 64 --gpu h100-sxm --global-batch 512 --seq-len 8192")
	f.Add("--model llama3-8b --gpus 8 --gpus-per-node 0 --global-batch -1 --top -3 --workers 0")
	f.Add("--model mixtral-8x7b --gpus 65536 --global-batch 1048577 --max-micro-batch 65 --efficiency 2")
	f.Add("--model llama3-8b --gpus 8 --global-batch 8 --tokens 15T --gpu-hour -2 --pue 0.9 --grid-kg-per-kwh NaN --emit megatron")
	f.Fuzz(func(t *testing.T, line string) {
		var fl planFlags
		fs := planFlagSet(&fl, io.Discard)
		if err := fs.Parse(strings.Fields(line)); err != nil {
			return
		}
		_, err := fl.config()
		if err == nil {
			return
		}
		for _, e := range flattenErr(err) {
			if !strings.HasPrefix(e.Error(), "--") {
				t.Errorf("error %q names no flag", e)
			}
		}
	})
}

// TestPlanBudget: with --max-simulations the search stops after that many
// simulations and says how much better the plans it did not simulate could
// be.
func TestPlanBudget(t *testing.T) {
	var out, errOut bytes.Buffer
	// With micro-batches of one sequence several plans' bounds are under
	// the best run (with two, the bound rules out all but one).
	if code := Main(append(smallPlan, "--max-micro-batch", "1", "--max-simulations", "1", "--quiet"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{" 1 simulated (analytic)", "not simulated (budget)", "the simulation budget ran out: no plan of the space runs under", "budget "} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}
