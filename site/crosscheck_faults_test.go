package site

import (
	"strings"
	"testing"
)

// TestCaptionIterations: a run of variable-length batches says how many
// steps ran, that the naive detector flagged a step and the predictor
// none, and the replica imbalance; the figures come from the run.
func TestCaptionIterations(t *testing.T) {
	got := captionOf(t, `model: {preset: gpt3-1.3b, seq_len: 2048}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 4}
parallel: {dp: 4, microbatches: 4, micro_batch_size: 2}
data: {seq_dist: lognormal, seq_cv: 1}
iterations: 6`)
	for _, want := range []string{"run ", "6 steps", "naive detector (1.2× median) flags step 2", "predictor (1.1×) quiet", "replica imbalance up to"} {
		if !strings.Contains(got, want) {
			t.Errorf("caption %q lacks %q", got, want)
		}
	}
}
