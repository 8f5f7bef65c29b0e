package kinetotest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// Simulate runs the scenario sim/scenario/testdata/file, with fidelity
// when it is not empty: a run to write as traces that every clone has.
func Simulate(t testing.TB, file, fidelity string) *timeline.Timeline {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "sim", "scenario", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if fidelity != "" {
		s.Fidelity = fidelity
	}
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// Written writes GPUs gpus of tl (every GPU when gpus is nil) as ranks'
// Kineto traces (kineto.WriteRank) and reads each back: the traces, and
// the files' bytes.
func Written(t testing.TB, tl *timeline.Timeline, gpus []int) ([]*kineto.Trace, [][]byte) {
	t.Helper()
	if gpus == nil {
		for g := range tl.GPUs {
			gpus = append(gpus, g)
		}
	}
	var traces []*kineto.Trace
	var files [][]byte
	for _, g := range gpus {
		var b bytes.Buffer
		if err := kineto.WriteRank(&b, tl, g); err != nil {
			t.Fatal(err)
		}
		files = append(files, b.Bytes())
		tr, err := kineto.Read(bytes.NewReader(b.Bytes()), fmt.Sprintf("rank%d.json", g), kineto.Limits{})
		if err != nil {
			t.Fatalf("reading rank %d back: %v", g, err)
		}
		traces = append(traces, tr)
	}
	return traces, files
}
