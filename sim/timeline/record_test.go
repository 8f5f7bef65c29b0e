package timeline_test

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"paraplay/sim/timeline"
)

// TestValidateCatchesRecordViolations breaks each invariant of the series
// and the records in a timeline a simulator made, and checks that Validate
// names it.
func TestValidateCatchesRecordViolations(t *testing.T) {
	tests := []struct {
		name, scenario string
		breakIt        func(*timeline.Timeline)
		want           string
	}{
		{"spans out of order", "pipeline-1f1b", func(tl *timeline.Timeline) {
			tl.Spans[0], tl.Spans[len(tl.Spans)-1] = tl.Spans[len(tl.Spans)-1], tl.Spans[0]
		}, "not sorted by start then GPU"},
		{"memory of another GPU", "pipeline-1f1b", func(tl *timeline.Timeline) { tl.Memory[0].GPU = 1 }, "memory[0]: GPU 1, want 0"},
		{"activations out of order", "pipeline-1f1b", func(tl *timeline.Timeline) { tl.Memory[1].Activations[2].At = 0 }, "memory[1]: activations[2]: at 0ns, before"},
		{"activations after the end", "pipeline-1f1b", func(tl *timeline.Timeline) {
			a := tl.Memory[1].Activations
			a[len(a)-1].At = tl.End + 1
		}, "outside [0,"},
		{"negative activations", "faults-restart", func(tl *timeline.Timeline) { tl.Memory[0].Activations[1].Bytes = -1 }, "memory[0]: activations[1]: -1B"},
		{"peak below the activations", "faults-restart", func(tl *timeline.Timeline) { tl.Memory[0].Peak -= 1 << 30 }, "memory[0]: peak"},
		{"peak below the KV cache", "inference-pp4", func(tl *timeline.Timeline) { tl.Memory[0].KVCache[3].Bytes += 1 << 40 }, "below the"},
		{"negative states", "faults-restart", func(tl *timeline.Timeline) { tl.Memory[2].Gradients = -5 }, "memory[2]: negative size"},
		{"recovery on no GPU", "faults-restart", func(tl *timeline.Timeline) { tl.Recovery[1].GPU = 99 }, "training: recovery[1]: fail of GPU 99"},
		{"iterations renumbered", "faults-restart", func(tl *timeline.Timeline) { tl.Iterations[2].Index = 7 }, "training: iterations[2]: iteration 7"},
		{"state past the end", "faults-restart", func(tl *timeline.Timeline) { tl.States[0].End = tl.End + 1 }, "states[0]: GPU"},
		{"pool of a missing GPU", "rlhf-async", func(tl *timeline.Timeline) { tl.RLHF.Pools[1].GPUs[0] = 99 }, "rlhf: pools[1]: GPU 99 does not exist"},
		{"queue over capacity", "rlhf-async", func(tl *timeline.Timeline) { tl.RLHF.Queue[8].Depth = 3 }, "rlhf: queue[8]: depth 3 outside [0, 2]"},
		{"queue out of order", "rlhf-async", func(tl *timeline.Timeline) { tl.RLHF.Queue[3].At = 0 }, "rlhf: queue[3]: at 0ns, before"},
		{"policy from the future", "rlhf-async", func(tl *timeline.Timeline) { tl.RLHF.Steps[2].Version = 3 }, "rlhf: steps[2]: generated with policy version 3"},
		{"staler than the bound", "rlhf-async", func(tl *timeline.Timeline) { tl.RLHF.Steps[5].Version = 0 }, "rlhf: steps[5]: 5 versions stale, over the bound 2"},
		{"trained before generated", "rlhf-async", func(tl *timeline.Timeline) { tl.RLHF.Steps[1].TrainStart = tl.RLHF.Steps[1].GenStart }, "rlhf: steps[1]: generation"},
		{"client of the wrong role", "split-2hop", func(tl *timeline.Timeline) { tl.GPUs[1].Role = "" }, `split: client 1 is vertex 1, not a GPU of role "client"`},
		{"compute node missing", "split-2hop", func(tl *timeline.Timeline) { tl.Split.Compute[1] = 9 }, "split: compute 1 is vertex 9"},
		{"layers with a gap", "split-2hop", func(tl *timeline.Timeline) { tl.Split.NodeLayers[1][0] = 12 }, "split: compute node 1 holds layers [12 17], not the ones after layer 11"},
		{"slowest client missing", "split-2hop", func(tl *timeline.Timeline) { tl.Split.Rounds[0].Slowest = 3 }, "split: rounds[0]: slowest client 3"},
		{"rounds overlap", "split-2hop", func(tl *timeline.Timeline) { tl.Split.Rounds[1].Start = 0 }, "split: rounds[1]: [0ns"},
		{"inference microbatches", "inference-pp4", func(tl *timeline.Timeline) { tl.Inference.Requests++ }, "inference: the microbatches hold 8 requests, not 9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tl := simulateFile(t, "../scenario/testdata/"+tc.scenario+".yaml")
			tc.breakIt(tl)
			if err := tl.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// toyRecord is the record of a strategy outside the built-in ones.
type toyRecord struct {
	Steps int `json:"steps"`
}

func (r *toyRecord) Check(*timeline.Timeline) []error {
	if r.Steps < 0 {
		return []error{fmt.Errorf("%d steps", r.Steps)}
	}
	return nil
}

func (r *toyRecord) Report(_ *timeline.Timeline, s *timeline.Summary) timeline.Report {
	return toyReport{Steps: r.Steps, GPUs: len(s.GPUs)}
}

type toyReport struct {
	Steps int `json:"steps"`
	GPUs  int `json:"gpus"`
}

func (r toyReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  toy                   %d steps on %d GPUs\n", r.Steps, r.GPUs)
}

// TestExtraRecord runs a record from outside the package through Validate,
// Summarize, the text summary and both JSON encodings.
func TestExtraRecord(t *testing.T) {
	tl := simulateFile(t, "../scenario/testdata/ring4.yaml")
	tl.Extra = map[string]timeline.Record{"toy": &toyRecord{Steps: 3}}
	if err := tl.Validate(); err != nil {
		t.Fatalf("Validate() = %v", err)
	}
	s := tl.Summarize()
	if got, want := s.Extra["toy"], (toyReport{Steps: 3, GPUs: 4}); got != want {
		t.Errorf("Summary.Extra[toy] = %v, want %v", got, want)
	}
	var text strings.Builder
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  run time ", "  toy                   3 steps on 4 GPUs\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text summary lacks %q:\n%s", want, text.String())
		}
	}
	for _, v := range []any{tl, s} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"extra":{"toy":{"steps":3`) {
			t.Errorf("%T's JSON lacks the toy record: %.200s…", v, data)
		}
	}
	tl.Extra["toy"] = &toyRecord{Steps: -1}
	if err := tl.Validate(); err == nil || !strings.Contains(err.Error(), "toy: -1 steps") {
		t.Errorf("Validate() = %v, want an error containing %q", err, "toy: -1 steps")
	}
}
