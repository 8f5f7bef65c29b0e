//go:build !js

package training

import (
	"fmt"
	"strings"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// iterationMetrics is the caption's part for a run of several iterations
// or one with faults: the steps done and lost, what the two fail-slow
// detectors flagged, the worst replica imbalance (always shown when the
// sequences are balanced), and the mix of GPUs.
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
	steps := strategy.Figure("{} steps", strategy.Whole(done))
	if lost > 0 {
		steps.Text += ", {} lost to a failure"
		steps.Values = append(steps.Values, strategy.Whole(lost))
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
	switch {
	case s.Data.Assign == "balanced":
		parts = append(parts, strategy.Figure("sequences dealt by predicted cost (LPT): replica imbalance up to {}×", strategy.Value{V: worst, Unit: strategy.Fixed2}))
	case worst > 1.05:
		parts = append(parts, strategy.Figure("replica imbalance up to {}×", strategy.Value{V: worst, Unit: strategy.Fixed2}))
	}
	return parts
}

// longRunMetrics is the caption of a scenario that sets failures.duration:
// the long run's failures and goodput, computed at build time by package
// fault on the simulated iteration. Under checkpoint-restart the
// simulated goodput stands beside Daly's closed form at the same interval
// (Daly 2006); under another policy, beside checkpoint-restart's own run
// with the same failures. Young's √(2·C·MTBF) closes the line.
func longRunMetrics(s scenario.Scenario) ([]strategy.Part, error) {
	l, err := NewLong(s, s.Failures.Duration, 0)
	if err != nil {
		return nil, fmt.Errorf("long run: %w", err)
	}
	rep, err := l.Run()
	if err != nil {
		return nil, fmt.Errorf("long run: %w", err)
	}
	rc := l.Config.Recovery
	wall := strategy.Value{V: float64(rep.Wall), Unit: strategy.Days}
	perHour := strategy.Value{V: rep.FailuresPerHour, Unit: strategy.Fixed2}
	goodput := strategy.Value{V: rep.Goodput, Unit: strategy.Percent, Role: strategy.Simulated}
	human := func(t units.Time) strategy.Value { return strategy.Value{V: float64(t), Unit: strategy.Human} }
	var head strategy.Part
	if rc.Policy == fault.CheckpointRestart {
		daly := fault.DalyGoodput(rc.CheckpointInterval, rc.CheckpointCost, rc.HeartbeatTimeout+rc.RestartCost, rep.MTBF)
		head = strategy.Part{Text: "{} run: {} failures ({}/h), goodput {}; Daly's closed form {} at τ = {}",
			Values: []strategy.Value{wall, strategy.Whole(rep.Failures), perHour, goodput, {V: daly, Unit: strategy.Percent, Role: strategy.Expected}, human(rc.CheckpointInterval)},
			Check:  &strategy.Check{Name: "goodput", Formula: "Daly's goodput", Source: "Daly 2006; an estimate to first order in the interval over the MTBF", Tolerance: 0.02}}
	} else {
		cr := l.Config
		cr.Recovery.Policy = fault.CheckpointRestart
		base, err := fault.Run(cr)
		if err != nil {
			return nil, fmt.Errorf("long run: %w", err)
		}
		head = strategy.Figure("{} run: {} failures ({}/h), goodput {} under "+rc.Policy+", {} under checkpoint-restart (τ = {})",
			wall, strategy.Whole(rep.Failures), perHour, goodput, strategy.Value{V: base.Goodput, Unit: strategy.Percent}, human(rc.CheckpointInterval))
	}
	return []strategy.Part{head, strategy.Figure("MTBF {}; Young √(2·C·MTBF) = {}", human(rep.MTBF), human(rep.YoungInterval))}, nil
}
