package training

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
)

// TestStageLayers deals layers out every way parallel allows.
func TestStageLayers(t *testing.T) {
	for _, c := range []struct {
		name           string
		p              scenario.Parallel
		layers, stages int
		want           []int
		err            string // the field the error names; "" for none
	}{
		{"equal", scenario.Parallel{}, 32, 4, []int{8, 8, 8, 8}, ""},
		{"equal, remainder first", scenario.Parallel{}, 10, 4, []int{3, 3, 2, 2}, ""},
		{"too few layers", scenario.Parallel{}, 3, 4, nil, "parallel.pp"},
		{"llama 3 405B by rule", scenario.Parallel{FirstLastFewer: 1}, 126, 16, append(append([]int{7}, slices.Repeat([]int{8}, 14)...), 7), ""},
		{"rule with a remainder", scenario.Parallel{FirstLastFewer: 1}, 31, 4, []int{7, 9, 8, 7}, ""},
		{"rule, interleaved 128 model stages", scenario.Parallel{FirstLastFewer: 1}, 126, 128, append(append([]int{0}, slices.Repeat([]int{1}, 126)...), 0), ""},
		{"rule takes more than a stage has", scenario.Parallel{FirstLastFewer: 10}, 126, 16, nil, "parallel.first_last_fewer"},
		{"rule empties a middle stage", scenario.Parallel{FirstLastFewer: 1}, 10, 16, nil, "parallel.first_last_fewer"},
		{"given", scenario.Parallel{LayersPerStage: []int{1, 3, 3, 1}}, 8, 4, []int{1, 3, 3, 1}, ""},
		{"given, empty ends", scenario.Parallel{LayersPerStage: []int{0, 4, 4, 0}}, 8, 4, []int{0, 4, 4, 0}, ""},
		{"given, wrong length", scenario.Parallel{LayersPerStage: []int{4, 4}}, 8, 4, nil, "parallel.layers_per_stage"},
		{"given, wrong sum", scenario.Parallel{LayersPerStage: []int{2, 2, 2, 3}}, 8, 4, nil, "parallel.layers_per_stage"},
		{"given, empty middle", scenario.Parallel{LayersPerStage: []int{4, 0, 4, 0}}, 8, 4, nil, "parallel.layers_per_stage"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := stageLayers(c.p, c.layers, c.stages)
			if c.err != "" {
				fe, ok := err.(*scenario.FieldError)
				if !ok || fe.Field != c.err {
					t.Fatalf("error %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("stageLayers = %v, %v; want %v", got, err, c.want)
			}
			sum := 0
			for _, n := range got {
				sum += n
			}
			if sum != c.layers {
				t.Errorf("the stages hold %d layers, want %d", sum, c.layers)
			}
		})
	}
}

// TestLlama3LayoutRuns runs Llama 3 405B's pipeline as the paper lays it
// out (one layer fewer on the first and last of 16 stages), from a
// scenario file's text, and checks the first stage's forward is 7/8 of a
// middle stage's layer compute plus the embedding's.
func TestLlama3LayoutRuns(t *testing.T) {
	for _, split := range []string{`layers_per_stage: "7,8*14,7"`, "first_last_fewer: 1", "layers_per_stage: [7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 7]"} {
		s, err := scenario.Parse([]byte(`model: {preset: llama3-405b}
cluster: {gpu: h100-sxm, nodes: 16, gpus_per_node: 8}
fidelity: analytic
parallel: {dp: 1, tp: 8, pp: 16, microbatches: 16, sequence_parallel: true, recompute: full, ` + split + `}
`))
		if err != nil {
			t.Fatalf("%s: %v", split, err)
		}
		tl := strategytest.MustRun(t, Simulate, s)
		var first, middle int64
		for _, sp := range tl.Spans {
			if sp.Kind == "forward" && sp.Microbatch == 0 && sp.GPU%8 == 0 {
				switch sp.Stage {
				case 0:
					first = int64(sp.End - sp.Start)
				case 1:
					middle = int64(sp.End - sp.Start)
				}
			}
		}
		if r := float64(first) / float64(middle); r < 7.0/8-1e-6 || r > 1 {
			t.Errorf("%s: stage 0's forward is %.3f of stage 1's; want 7/8 of the layers plus the embedding (in [0.875, 1])", split, r)
		}
	}
}

// TestLayerSplitRefusals names the field of every split that cannot run.
func TestLayerSplitRefusals(t *testing.T) {
	base := "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 1, tp: 2, pp: 4, microbatches: 8, "
	for _, c := range []struct{ split, field, msg string }{
		{"layers_per_stage: 8*3", "parallel.layers_per_stage", "lists 3 stages"},
		{`layers_per_stage: "8*3,9"`, "parallel.layers_per_stage", "adds up to 33"},
		{`layers_per_stage: "8*4", first_last_fewer: 1`, "parallel.layers_per_stage", "set one"},
		{"first_last_fewer: 65", "parallel.first_last_fewer", "allowed 0..64"},
		{"first_last_fewer: 1, partition: balanced", "parallel.partition", "sizes the stages itself"},
		{"layers_per_stage: x", "parallel.layers_per_stage", "whole number"},
		{"layers_per_stage: 8*0", "parallel.layers_per_stage", "after *"},
	} {
		_, err := scenario.Parse([]byte(base + c.split + "}\n"))
		if err == nil || !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v; want one naming %s saying %q", c.split, err, c.field, c.msg)
		}
	}
}

// TestLayerSplitOnTheV: the V-shaped schedules run two model stages a
// device, so layers_per_stage lists 2·pp counts (validation once counted
// pp·v and refused them, naming the wrong count).
func TestLayerSplitOnTheV(t *testing.T) {
	base := "model: {preset: llama3-8b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 2, tp: 1, pp: 4, microbatches: 8, schedule: %s, "
	for _, sched := range []string{"dualpipev", "zb-v"} {
		if _, err := scenario.Parse([]byte(fmt.Sprintf(base, sched) + `layers_per_stage: "3,4*6,5"}` + "\n")); err != nil {
			t.Errorf("%s with 8 counts: %v", sched, err)
		}
		_, err := scenario.Parse([]byte(fmt.Sprintf(base, sched) + `layers_per_stage: "8*4"}` + "\n"))
		if err == nil || !strings.Contains(err.Error(), "has 8 model stages") {
			t.Errorf("%s with 4 counts: error %v; want one saying the schedule has 8 model stages", sched, err)
		}
	}
}
