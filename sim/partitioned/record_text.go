//go:build !js

package partitioned

import (
	"fmt"
	"io"

	"paraplay/sim/units"
)

// The summary's lines are for the command line and the site's build; the
// browser prints no summary (sim/timeline/summary_text.go; record_js.go
// is its stand-in).

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
