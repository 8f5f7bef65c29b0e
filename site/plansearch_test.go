package site

import (
	"html"
	"strings"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/taskgraph"
)

// TestSearchTable checks a search table (view.plan with view.static)
// against the planner and an independent run: the best plan's label and
// iteration, a compare row's iteration as run.Simulate gives it at
// analytic fidelity, the sentence that compares them, and that a second
// rendering reuses the first search (one search per build).
func TestSearchTable(t *testing.T) {
	s := parseBlock(t, `name: Llama 3 8B on 8 H100s
model: {preset: llama3-8b, seq_len: 2048}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}
parallel: {dp: 2, tp: 2, pp: 2, microbatches: 8, schedule: interleaved, virtual_stages: 2, first_last_fewer: 1}
`)
	rows := []compareRow{{"the block's layout", ""}, {"the same with 1F1B", "schedule=1f1b&virtual_stages=1"}}
	tb, err := planSearch(s, rows)
	if err != nil {
		t.Fatal(err)
	}
	again, err := planSearch(s, rows)
	if err != nil || again != tb {
		t.Errorf("the second rendering searched again (%v)", err)
	}
	out, err := searchHTML(s.Title(), tb)
	if err != nil {
		t.Fatal(err)
	}
	best := tb.r.Plans[0]
	own := s
	own.Fidelity = taskgraph.Analytic
	tl, err := run.Simulate(own)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		html.EscapeString(best.Label()) + "</small></td><td>" + roundTime(best.Result.Iteration),
		"the block&#39;s layout<br><small>",
		"</small></td><td>" + roundTime(tl.End) + "</td>",
		"It runs an iteration in " + roundTime(best.Result.Iteration) + ", against " + roundTime(tl.End),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "--tensor-model-parallel-size") && !strings.Contains(out, "Megatron-LM cannot run") {
		t.Errorf("table has no launch line for the best plan")
	}
}
