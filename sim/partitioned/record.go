package partitioned

import (
	"errors"
	"fmt"
	"io"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Record is a partitioned-pretraining run's phases, in Timeline.Extra
// under Name.
type Record struct {
	Settings
	// SubStep and FullStep are one step of a sub-model and of the full
	// model; Phase1 is PreSteps sub-model steps and Merge the all-gather
	// of the sub-models' weights.
	SubStep, FullStep, Phase1, Merge units.Time
	// SubParams and FullParams count one sub-model's and the full
	// model's parameters.
	SubParams, FullParams float64
	// MergeBytes is every sub-model's weights in bf16, gathered by all.
	MergeBytes units.Bytes
	// SubPeak and FullPeak are the largest per-GPU memory of each phase.
	SubPeak, FullPeak units.Bytes
	// SubGPUs are the GPUs of one sub-model; GPUs those of the run.
	SubGPUs, GPUs int
	// SubFLOPs and FullFLOPs are the model FLOPs of one step of one
	// sub-model (over its GPUs) and of the full model.
	SubFLOPs, FullFLOPs float64
}

// Check holds the record to the run: the phases end where the run does.
func (r *Record) Check(tl *timeline.Timeline) []error {
	var errs []error
	if r.SubStep <= 0 || r.FullStep <= 0 || r.Merge <= 0 || r.Phase1 != units.Time(r.PreSteps)*r.SubStep {
		errs = append(errs, errors.New("partitioned: a phase has no length"))
	}
	if end := r.Phase1 + r.Merge + units.Time(r.FullSteps)*r.FullStep; end != tl.End {
		errs = append(errs, fmt.Errorf("partitioned: the phases end at %v, the run at %v", end, tl.End))
	}
	if r.SubGPUs*r.Parts != r.GPUs || r.GPUs != len(tl.GPUs) {
		errs = append(errs, fmt.Errorf("partitioned: %d sub-models of %d GPUs on %d", r.Parts, r.SubGPUs, len(tl.GPUs)))
	}
	return errs
}

// Report is the record's summary lines.
func (r *Record) Report(*timeline.Timeline, *timeline.Summary) timeline.Report { return report{r} }

type report struct{ *Record }

// WriteText prints the phases.
func (r report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  phase 1               %d sub-models of 1/%d the width, %s parameters each, on %d GPUs each: %d × %v a step\n",
		r.Parts, r.Parts, millions(r.SubParams), r.SubGPUs, r.PreSteps, r.SubStep)
	fmt.Fprintf(w, "  merge                 all-gather of %s of weights over %d GPUs: %v\n", gib(r.MergeBytes), r.GPUs, r.Merge)
	fmt.Fprintf(w, "  phase 3               the full model, %s parameters, on %d GPUs: %d × %v a step\n", millions(r.FullParams), r.GPUs, r.FullSteps, r.FullStep)
	fmt.Fprintf(w, "  peak memory per GPU   %s in phase 1, %s in phase 3\n", gib(r.SubPeak), gib(r.FullPeak))
}

func millions(x float64) string { return fmt.Sprintf("%.1fM", x/1e6) }

func gib(b units.Bytes) string { return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30)) }
