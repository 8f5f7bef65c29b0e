//go:build !js

package partitioned

import (
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// Caption is the caption of a partitioned-pretraining demo: the run, each
// phase's step and peak memory per GPU, the merge, and, for a GPT-style
// model, each phase's simulated model FLOPs per step beside Narayanan et
// al. 2021's closed form 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)) at the
// sub-model's width h/k, where the square law shows: a GPU's share of a
// sub-model step costs about 1/k² of its share of a full step.
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	r, err := strategy.RecordOf[*Record](tl, Name)
	if err != nil {
		return nil, err
	}
	parts := []strategy.Part{
		strategy.Figure("run {}", strategy.Nanos(tl.End)),
		strategy.Figure("phase 1: {} sub-models × {} steps of {}, peak {} per GPU", strategy.Whole(r.Parts), strategy.Whole(r.PreSteps),
			strategy.Nanos(r.SubStep), strategy.Value{V: float64(r.SubPeak), Unit: strategy.GiB}),
		strategy.Figure("merge {}", strategy.Nanos(r.Merge)),
		strategy.Figure("phase 3: {} steps of {}, peak {} per GPU", strategy.Whole(r.FullSteps), strategy.Nanos(r.FullStep),
			strategy.Value{V: float64(r.FullPeak), Unit: strategy.GiB}),
	}
	m, err := s.Model.Resolve()
	if err != nil || !m.IsGPTStyle() || s.Parallel.Recompute == "full" || r.SubFLOPs == 0 {
		return parts, nil
	}
	k, p := r.Parts, s.Parallel
	batch := p.DP * p.Microbatches * p.MicroBatchSize
	sub := workload.NarayananModelFLOPs(batch/k, m.SeqLen, m.Layers, m.Hidden/k, m.Vocab)
	check := strategy.Check{Name: "sub-model FLOPs", Formula: "72·B·s·l·(h/k)²(1 + s/(6h/k) + V/(12·l·h/k))",
		Source: "Narayanan et al. 2021, Eq. 3, at the sub-model's width", Tolerance: 1e-6}
	parts = append(parts, strategy.Compare(check, "simulated sub-model step {} TFLOP; 72·B·s·l·(h/k)²(1 + s/(6h/k) + V/(12·l·h/k)) = {} TFLOP",
		r.SubFLOPs/1e12, sub/1e12, strategy.Sig3))
	perGPU := (r.SubFLOPs / float64(r.SubGPUs)) / (r.FullFLOPs / float64(r.GPUs))
	parts = append(parts, strategy.Figure("per GPU, {} of a full step's FLOPs (1/k² = {})",
		strategy.Value{V: perGPU, Unit: strategy.Percent}, strategy.Value{V: 1 / float64(k*k), Unit: strategy.Percent}))
	return parts, nil
}
