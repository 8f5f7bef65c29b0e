package site

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
)

// iterationMetrics is the caption's part for a run of several iterations
// or one with faults: the steps done and lost, what the two fail-slow
// detectors flagged, the worst replica imbalance, and the mix of GPUs.
// Every figure comes from the run's Iteration records.
func iterationMetrics(s scenario.Scenario, sum timeline.Summary) []strategy.Part {
	var parts []strategy.Part
	if len(s.Cluster.NodeGPUs) > 0 {
		parts = append(parts, strategy.Figure("GPUs per node: "+scenario.FormatNodeGPUs(s.Cluster.NodeGPUs)))
	}
	if len(sum.Iterations) == 0 {
		return parts
	}
	done, lost, worst := 0, 0, 1.0
	var naive, pred []string
	for _, it := range sum.Iterations {
		if it.Aborted {
			lost++
			continue
		}
		done++
		worst = max(worst, it.Imbalance)
		if it.NaiveFlag {
			naive = append(naive, fmt.Sprint(it.Step))
		}
		if it.PredictorFlag {
			pred = append(pred, fmt.Sprintf("%d (GPU %d, %.2f×)", it.Step, it.SlowGPU, it.SlowRatio))
		}
	}
	if done == 1 && lost == 0 {
		return parts // one plain iteration: the run time says it all
	}
	steps := strategy.Figure("{} steps", whole(done))
	if lost > 0 {
		steps.Text += ", {} lost to a failure"
		steps.Values = append(steps.Values, whole(lost))
	}
	parts = append(parts, steps)
	if done > 1 || len(s.Faults) > 0 {
		flag := func(name string, hits []string) string {
			if len(hits) == 0 {
				return name + " quiet"
			}
			return name + " flags step " + strings.Join(hits, ", ")
		}
		parts = append(parts, strategy.Figure(flag("naive detector (1.2× median)", naive)), strategy.Figure(flag("predictor (1.1×)", pred)))
	}
	if worst > 1.05 {
		parts = append(parts, strategy.Figure("replica imbalance up to {}×", strategy.Value{V: worst, Unit: strategy.Fixed2}))
	}
	return parts
}
