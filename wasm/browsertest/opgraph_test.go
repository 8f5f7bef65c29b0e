//go:build browser

package browsertest

import (
	"strings"
	"testing"
)

// TestSiteOperatorGraphs reads the operator-graph demos: in the pipeline
// article the seq2seq LSTM under GPipe and under DAPPLE's per-stage
// replicas (whose caption names the planner's choice and the best uniform
// split), the DAPPLE demo playing; in the 3D-parallelism article
// ResNet-50 data parallel (playing) and the seq2seq hybrid's build-time
// table beside its closed form.
func TestSiteOperatorGraphs(t *testing.T) {
	base := serve(t)
	ctx, con := browser(t)
	captions := readDemos(t, ctx, base, "pipeline.html", 14, "opgraph-pipeline")
	if c := captions[10]; !strings.Contains(c, "8 stages") || !strings.Contains(c, "simulated") {
		t.Errorf("the GPipe LSTM demo's caption lacks its stages: %q", c)
	}
	if c := captions[11]; !strings.Contains(c, "DAPPLE's planner, over 128 splits: GPUs 1,1,2,4") || !strings.Contains(c, "best uniform split") {
		t.Errorf("the DAPPLE demo's caption lacks the planner: %q", c)
	}
	playDemo(t, ctx, 12, "opgraph-dapple")

	captions = readDemos(t, ctx, base, "3d-parallelism.html", 7, "opgraph-3d")
	if c := captions[6]; !strings.Contains(c, "GFLOPs forward a sample") || !strings.Contains(c, "all-reduce (ring)") {
		t.Errorf("the ResNet-50 demo's caption lacks its FLOPs or all-reduce: %q", c)
	}
	playDemo(t, ctx, 7, "opgraph-resnet")
	table := eval[string](t, ctx, `[...document.querySelectorAll("figure.static-run")].map(f => f.innerText).join("\n")`)
	if !strings.Contains(table, "3E + 3W·c + 3f") || !strings.Contains(table, "the links add") {
		t.Errorf("the seq2seq hybrid's table lacks its closed form: %q", table)
	}
	noConsoleErrors(t, con)
}
