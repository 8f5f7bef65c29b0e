package kineto

import (
	"fmt"
	"io"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Record is a measured run's own part of its timeline (Extra[RecordName]):
// where each GPU's trace came from and what its host said.
type Record struct {
	// GPUs has one entry per GPU of the timeline, in its order.
	GPUs []RankInfo `json:"gpus"`
}

// RankInfo is what one GPU's trace says beyond its kernels.
type RankInfo struct {
	// GPU is the GPU's id in the timeline.
	GPU int `json:"gpu"`
	// File is the trace's name; Rank and WorldSize its distributedInfo
	// (Rank -1 without one); Device the CUDA device index.
	File      string `json:"file"`
	Rank      int    `json:"rank"`
	WorldSize int    `json:"world_size"`
	Device    int    `json:"device"`
	// DeviceName is the device's name from deviceProperties, when listed.
	DeviceName string `json:"device_name,omitempty"`
	// Origin is the instant of the trace's clock that is the run's 0, in
	// ns (origin).
	Origin units.Time `json:"origin_ns"`
	// Steps are the ProfilerStep annotations, moved to the run's clock.
	Steps []Step `json:"steps,omitempty"`
}

// rankInfo describes GPU i of the run.
func rankInfo(i int, g rankGPU) RankInfo {
	r := RankInfo{GPU: i, File: g.trace.Name, Rank: g.trace.Rank, WorldSize: g.trace.WorldSize,
		Device: int(g.device), Origin: g.origin}
	if d, ok := g.trace.Device(int(g.device)); ok {
		r.DeviceName = d.Name
	}
	for _, s := range g.trace.Steps {
		r.Steps = append(r.Steps, Step{Number: s.Number, Start: s.Start - g.origin, End: s.End - g.origin})
	}
	return r
}

// Check reports GPUs that disagree with the run: one entry per GPU, in
// order, with steps that start at 0 or later and do not end before they
// start.
func (r *Record) Check(tl *timeline.Timeline) []error {
	var errs []error
	if len(r.GPUs) != len(tl.GPUs) {
		errs = append(errs, fmt.Errorf("%d GPUs described for %d in the run", len(r.GPUs), len(tl.GPUs)))
	}
	for i, g := range r.GPUs {
		if g.GPU != i {
			errs = append(errs, fmt.Errorf("gpus[%d]: gpu %d", i, g.GPU))
		}
		for _, s := range g.Steps {
			if s.Start < 0 || s.End < s.Start {
				errs = append(errs, fmt.Errorf("gpus[%d]: step %d runs %v..%v", i, s.Number, s.Start, s.End))
			}
		}
	}
	return errs
}

// Report is the record's line of the summary: where the run came from.
func (r *Record) Report(tl *timeline.Timeline, s *timeline.Summary) timeline.Report {
	return &recordReport{Files: len(r.GPUs), Steps: meanStep(r)}
}

// meanStep is the mean ProfilerStep length over every GPU's steps, 0
// without any.
func meanStep(r *Record) units.Time {
	var sum units.Time
	n := 0
	for _, g := range r.GPUs {
		for _, s := range g.Steps {
			sum += s.End - s.Start
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / units.Time(n)
}

// recordReport is the summary's line of a measured run.
type recordReport struct {
	Files int        `json:"gpus"`
	Steps units.Time `json:"mean_step_ns,omitempty"`
}

// WriteText prints where the run came from and its mean profiler step.
func (r *recordReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  measured              %d GPUs from profiler traces", r.Files)
	if r.Steps > 0 {
		fmt.Fprintf(w, "; mean ProfilerStep %v", r.Steps)
	}
	fmt.Fprintln(w)
}
