//go:build !js

package kineto_test

import (
	"bytes"
	"testing"

	"paraplay/sim/kineto"
	"paraplay/sim/kineto/kinetotest"
	"paraplay/sim/timeline"
)

// simulate runs a testdata scenario, with fidelity when it is not empty.
func simulate(t *testing.T, file, fidelity string) *timeline.Timeline {
	return kinetotest.Simulate(t, file, fidelity)
}

// roundTrip writes every GPU of tl as a rank's trace and imports them.
func roundTrip(t *testing.T, tl *timeline.Timeline) (*timeline.Timeline, [][]byte) {
	t.Helper()
	traces, files := kinetotest.Written(t, tl, nil)
	got, err := kineto.Timeline(traces)
	if err != nil {
		t.Fatal(err)
	}
	return got, files
}

// core is the part of a timeline the Kineto format carries: GPUs, spans,
// collectives and the end (WriteRank's comment lists what it leaves out).
func core(tl *timeline.Timeline) *timeline.Timeline {
	return &timeline.Timeline{Title: tl.Title, Fidelity: tl.Fidelity, GPUs: tl.GPUs, Spans: tl.Spans,
		Collectives: tl.Collectives, End: tl.End}
}

// TestRoundTrip holds a ParaPlay-written Kineto trace to the timeline it
// was written from: written, read and converted, an analytic run gives
// back the same GPUs, spans, collectives and end, byte for byte in the
// timeline's JSON; and writing the import again gives the same files.
func TestRoundTrip(t *testing.T) {
	for _, c := range []struct{ file, fidelity string }{
		{"llama3-8b-2x8.yaml", "analytic"},
		{"pipeline-1f1b.yaml", ""},
		{"single-gpu-training.yaml", ""},
		{"inference-pp4.yaml", ""},
	} {
		t.Run(c.file, func(t *testing.T) {
			want := core(simulate(t, c.file, c.fidelity))
			if want.Transfers.Len() > 0 {
				t.Fatalf("%s has transfers: not a run the format carries whole", c.file)
			}
			got, files := roundTrip(t, want)
			if got.Extra != nil {
				t.Errorf("a ParaPlay trace's import has a measured record: %v", got.Extra)
			}
			var a, b bytes.Buffer
			if err := timeline.WriteJSON(want, &a); err != nil {
				t.Fatal(err)
			}
			if err := timeline.WriteJSON(got, &b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("round trip differs: %d spans/%d collectives back, want %d/%d; first difference near byte %d",
					len(got.Spans), len(got.Collectives), len(want.Spans), len(want.Collectives), firstDiff(a.Bytes(), b.Bytes()))
			}
			_, again := roundTrip(t, got)
			for g := range files {
				if !bytes.Equal(files[g], again[g]) {
					t.Errorf("rank %d: writing the import again gives other bytes", g)
				}
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
