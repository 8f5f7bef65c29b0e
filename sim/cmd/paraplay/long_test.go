package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const week = "../../scenario/testdata/long/llama3-8b-week.yaml"

func TestLongRunPrintsGoodputAndLosses(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"run", week, "--duration", "7d", "--sweep-checkpoint"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	for _, want := range []string{"long run (analytic iteration", "policy                elastic", "goodput", "lost work",
		"restart", "checkpoint writes", "detection", "degraded", "Young √(2·C·MTBF)", "← best", "best interval"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	var again bytes.Buffer
	Main([]string{"run", "--duration", "7d", "--sweep-checkpoint", week}, &again, &bytes.Buffer{})
	if again.String() != out.String() {
		t.Error("two long runs of the same scenario printed different reports")
	}
}

func TestLongRunJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Main([]string{"run", week, "--iterations", "200000", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	var got longOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if got.Report.Iterations != 200000 || got.Report.Goodput <= 0 || got.Report.Goodput >= 1 || got.Report.Failures == 0 {
		t.Errorf("report %+v: want 200000 iterations, some failures and a goodput in (0, 1)", got.Report)
	}
	// The run's rent: every GPU for the whole wall time at its preset's
	// rate; per useful token, over the iterations kept.
	c := got.Cost
	if c == nil || c.Budget != nil {
		t.Fatalf("cost %+v: want the run's cost and no budget (the scenario sets no training.tokens)", c)
	}
	if c.CostUSD <= 0 || c.UsefulTokens <= 0 || c.USDPerMillion != c.CostUSD/c.UsefulTokens*1e6 {
		t.Errorf("cost %+v: want dollars per million useful tokens = run cost / useful tokens × 1e6", *c)
	}
}

func TestLongRunBadCommandLines(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", week, "--duration", "0s"}, exitUsage, "duration > 0"},
		{[]string{"run", week, "--duration", "soon"}, exitUsage, "invalid duration"},
		{[]string{"run", week, "--iterations", "-3"}, exitUsage, "--iterations is -3"},
		{[]string{"run", "../../scenario/testdata/llama3-8b-2x8.yaml", "--sweep-checkpoint"}, exitUsage, "needs --duration, --iterations"},
		{[]string{"run", example, "--duration", "1d"}, exitUsage, "needs a training scenario"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		if code := Main(tc.args, &out, &errOut); code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut.String(), tc.code, tc.want)
		}
	}
}
