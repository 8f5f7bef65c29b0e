package opgraph_test

import (
	"errors"
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/opgraph"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
)

// FuzzScenario runs the graph section's keys on arbitrary values, with
// every split and GPU count: each scenario is refused with an error that
// names a field, or runs within its Work bound to a timeline that passes
// timeline.Validate; nothing panics or hangs.
func FuzzScenario(f *testing.F) {
	f.Add("resnet50", "data", 256, 8, "", 224, 30, 8, "")
	f.Add("seq2seq-lstm", "model", 256, 8, "1,1,2,4", 224, 30, 8, "")
	f.Add("seq2seq-lstm", "hybrid", 128, 1, "", 224, 10, 4, "ideal")
	f.Add("seq2seq-lstm", "model", 7, 3, "0,8", 31, 0, 9, "fat-tree")
	f.Add("vgg", "tensor", -1, 0, "1*8", 1056, 201, 0, "x")
	f.Fuzz(func(t *testing.T, model, split string, batch, mb int, reps string, image, words, gpus int, network string) {
		s := scenario.Default()
		s.Strategy = opgraph.Name
		s.Cluster = scenario.Cluster{GPU: "h100-sxm", GPUsPerNode: gpus % 10, Network: network}
		opgraph.Edit(&s, func(y *opgraph.Settings) {
			y.Model, y.Split, y.Batch, y.Microbatches = model, split, batch%70000, mb%300
			y.StageReplicas, y.Image, y.Words = reps, image%1100, words%210
		})
		w, err := run.Work(s)
		if err != nil {
			var fe *scenario.FieldError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Fatalf("refused without naming a field: %v", err)
			}
			return
		}
		lim := budget.Limits{Who: "the fuzz target allows", Events: 1e6, Transfers: 1e5, Spans: 1e5, TraceBytes: 1e9, Memory: 1 << 30}
		if lim.Check(w) != nil {
			return
		}
		tl, err := run.SimulateWithin(s, lim)
		if err != nil {
			t.Fatalf("%s: a valid scenario failed: %v", s.Describe(), err)
		}
		if n := float64(len(tl.Spans)); n > w.Spans.N {
			t.Errorf("%s: %g spans, bound %g", s.Describe(), n, w.Spans.N)
		}
		if n := float64(tl.Transfers.Len()); n > w.Transfers.N {
			t.Errorf("%s: %g transfers, bound %g", s.Describe(), n, w.Transfers.N)
		}
	})
}
