package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/timeline"
)

const example = "../../scenario/testdata/ring4.yaml"

func TestRunPrintsSummaryAndWritesTrace(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.json")
	var out, errOut bytes.Buffer
	if code := Main([]string{"run", example, "--trace", trace}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	for _, want := range []string{"iteration time", "10.056534ms", "ring all-reduce", "busbw", "GPU 3"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Error("trace is not valid JSON")
	}
	// Same scenario twice → byte-identical trace.
	trace2 := filepath.Join(dir, "trace2.json")
	Main([]string{"run", "--trace", trace2, example}, &bytes.Buffer{}, &bytes.Buffer{})
	data2, _ := os.ReadFile(trace2)
	if !bytes.Equal(data, data2) {
		t.Error("two runs of the same scenario wrote different traces")
	}
}

func TestRunTimelineValidates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tl.json")
	var out bytes.Buffer
	if code := Main([]string{"run", example, "--json", "--timeline", path}, &out, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var sum timeline.Summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil || sum.Iteration == 0 {
		t.Fatalf("--json output %q: %v", out.String(), err)
	}
	data, _ := os.ReadFile(path)
	var tl timeline.Timeline
	if err := json.Unmarshal(data, &tl); err != nil {
		t.Fatal(err)
	}
	if err := tl.Validate(); err != nil {
		t.Errorf("written timeline does not validate: %v", err)
	}
	if tl.End != sum.Iteration {
		t.Errorf("timeline end %v, summary iteration %v", tl.End, sum.Iteration)
	}
}

func TestBadInputExitsNonZeroNamingTheField(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("gpus: 999\ncollective:\n  size: huge\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"run", bad}, exitUsage, []string{"gpus", "1..64", "collective.size", "line 3"}},
		{[]string{"run"}, exitUsage, []string{"exactly one scenario file"}},
		{[]string{"run", "/no/such/file.yaml"}, exitUsage, []string{"no such file"}},
		{[]string{"fly"}, exitUsage, []string{"unknown command"}},
		{[]string{"run", example, "--bogus"}, exitUsage, []string{"bogus"}},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := Main(tc.args, &out, &errOut)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.code)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut.String(), w) {
				t.Errorf("%v: stderr %q lacks %q", tc.args, errOut.String(), w)
			}
		}
	}
}
