//go:build !js

package opgraph

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/golden"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
)

// TestLAMPGolden holds the timeline of testdata/unet3d-lamp.yaml (a whole
// 256³ image as LAMP's four stages) to its golden file: every span and
// every message, the skip connections among them.
func TestLAMPGolden(t *testing.T) {
	s := strategytest.Load(t, filepath.Join("testdata", "unet3d-lamp.yaml"))
	tl, err := Strategy{}.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, end %v\n", tl.Title, tl.End)
	for _, x := range tl.Spans {
		fmt.Fprintf(&b, "span     %-12v %-12v GPU %d %s %s stage %d microbatch %d\n", x.Start, x.End, x.GPU, x.Kind, x.Label, x.Stage, x.Microbatch)
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		fmt.Fprintf(&b, "transfer %-12v %-12v %d→%d %v\n", x.Start, x.End, x.Src, x.Dst, x.Bytes)
	}
	golden.Check(t, filepath.Join("testdata", "unet3d-lamp.timeline.txt"), []byte(b.String()))
}

// FuzzUNet3D builds graph sections of the U-Net from the fuzzer's bytes
// (every unet3d key: volume, channels, levels, and the split, batch,
// microbatches and GPUs it runs with, boundary values among them). Each
// is refused with an error naming a graph or cluster key, or it runs
// within its work bound to a valid timeline; nothing panics.
func FuzzUNet3D(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{3, 2, 1, 1, 2, 3, 1})
	f.Add([]byte{7, 7, 7, 7, 7, 7, 7})
	limits := budget.Limits{Who: "the fuzz target allows", Events: 30e3, Transfers: 3e3, Spans: 3e3, TraceBytes: 1e9, Memory: 64 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		next := fuzzPicker(data)
		s := scenario.Default()
		s.Strategy = Name
		s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: next(1, 2, 3, 4, 8, 9, 0)}
		Edit(&s, func(y *Settings) {
			y.Model, y.Split = ModelUNet3D, []string{Model, Data, Hybrid, "x"}[next(0, 1, 2, 3)]
			y.Volume, y.Channels, y.Levels = next(64, 32, 8, 100, 0, 512, 600), next(8, 1, 32, 0, 256, 257), next(3, 2, 4, 6, 1, 7)
			y.Batch, y.Microbatches = next(2, 1, 4, 8, 0, 3), next(2, 1, 4, 0, 3)
		})
		runFuzzed(t, s, limits)
	})
}
