package launch

import (
	"encoding/json"
	"fmt"

	"paraplay/sim/scenario"
)

// DeepSpeed's configuration for a plan (the ds_config JSON of DeepSpeed's
// configuration documentation):
//
//	dp·m·b, b, m            train_batch_size, train_micro_batch_size_per_gpu, gradient_accumulation_steps
//	zero 0..3               zero_optimization.stage (overlap_comm on: gradients reduce during the backward)
//	precision bf16, fp16    bf16.enabled, fp16.enabled
//
// The configuration holds data parallelism only: tensor and pipeline
// degrees, recomputation and the schedule live in the model code
// (Megatron-DeepSpeed's flags, DeepSpeed's PipelineModule), so
// DeepSpeedNote says what to set there.

// dsConfig is the part of a ds_config the export writes.
type dsConfig struct {
	TrainBatch    int            `json:"train_batch_size"`
	MicroBatch    int            `json:"train_micro_batch_size_per_gpu"`
	Accumulation  int            `json:"gradient_accumulation_steps"`
	BF16          *dsEnabled     `json:"bf16,omitempty"`
	FP16          *dsEnabled     `json:"fp16,omitempty"`
	ZeRO          dsZeRO         `json:"zero_optimization"`
	WallClockTime bool           `json:"wall_clock_breakdown"`
	Note          map[string]any `json:"paraplay_plan"`
}

type dsEnabled struct {
	Enabled bool `json:"enabled"`
}

type dsZeRO struct {
	Stage       int  `json:"stage"`
	OverlapComm bool `json:"overlap_comm"`
}

// DeepSpeed writes the plan s as a ds_config JSON, and a note of what
// the model code must set (empty for a data-parallel plan).
func DeepSpeed(s scenario.Scenario) (config, note string, err error) {
	if err := checkExpressible(s, "DeepSpeed", []string{"1f1b"}); err != nil {
		return "", "", err
	}
	p := s.Parallel
	c := dsConfig{TrainBatch: p.DP * p.Microbatches * p.MicroBatchSize, MicroBatch: p.MicroBatchSize,
		Accumulation: p.Microbatches, ZeRO: dsZeRO{Stage: p.ZeRO, OverlapComm: p.GradReduce != "after_backward"},
		Note: map[string]any{"model": s.Model.Label(), "gpus": s.NumGPUs(), "dp": p.DP, "tp": p.TP, "pp": p.PP, "cp": p.CP,
			"ep": p.EP, "recompute": p.Recompute, "sequence_parallel": p.SequenceParallel}}
	switch s.Training.Precision {
	case "fp16":
		c.FP16 = &dsEnabled{true}
	case "bf16":
		c.BF16 = &dsEnabled{true}
	default:
		return "", "", fmt.Errorf("training.precision: %s; the DeepSpeed export writes bf16 or fp16", s.Training.Precision)
	}
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", "", err
	}
	if p.TP > 1 || p.PP > 1 || p.CP > 1 || p.EP > 1 || p.Recompute != "none" {
		note = fmt.Sprintf("DeepSpeed's config holds data parallelism only: set in the model code tensor parallel %d, pipeline stages %d "+
			"(1F1B), context parallel %d, expert parallel %d, sequence parallel %t, recomputation %s "+
			"(Megatron-DeepSpeed: --tensor-model-parallel-size %d --pipeline-model-parallel-size %d)",
			p.TP, p.PP, p.CP, p.EP, p.SequenceParallel, p.Recompute, p.TP, p.PP)
	}
	return string(out) + "\n", note, nil
}
