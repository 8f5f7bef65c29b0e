package scene

import (
	"slices"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// A look is how the scene draws the record a timeline carries for its
// strategy (Timeline.Async, RLHF, Split, Inference, Training): every
// choice the frame makes that depends on which strategy made the run goes
// through it, so the rest of the package draws spans, transfers and memory
// series without asking. lookOf picks a run's look; each built-in look is
// a table in its strategy's file, sharing the collective's and the
// training run's hooks where it does not differ. (A table of functions,
// not an interface: embedding one look in another made a wrapper per
// promoted method, which cost the wasm 11 KB gzipped.)
type look struct {
	// training is whether the run is drawn as a training run: a metrics
	// and memory column right of the network view, strip rows by
	// pipeline stage, spans tinted by microbatch, packets coloured by
	// traffic and a caption naming the schedule.
	training bool
	// labelSpans is whether the strip writes a wide span's op ("F3").
	labelSpans bool
	// rows picks the GPUs the strip (and by default the memory panel)
	// shows.
	rows func(tl *timeline.Timeline) stripRows
	// metrics are the numbers of the metrics box, its rows included; nil
	// when the run has none (not training).
	metrics func(tl *timeline.Timeline) *metrics
	// legend lists the legend's swatches, in order.
	legend func(f *Frames) []legendEntry
	// caption is the caption line of the topology view at t, given the
	// transfers in flight.
	caption func(f *Frames, t units.Time, live []int32) string
	// traffic names the kind of traffic x carries, which colours its
	// packet and its send in the strip.
	traffic func(tl *timeline.Timeline, x timeline.Transfer) string
	// memGPUs are the GPUs with a memory bar.
	memGPUs func(f *Frames) []int
	// memParts are the categories the memory bars stack, bottom to top.
	memParts []memPart
	// underSpans draws in the strip under the spans; nil: nothing.
	underSpans func(b *builder, g stripLayout)
	// overlay dresses the network view once it is laid out, editing or
	// adding items; nil: nothing.
	overlay func(b *builder, t units.Time)
}

// lookOf picks the look of tl by the record it carries: the one place
// the scene asks which strategy made a run. A timeline carries one
// strategy's record; a new kind of record adds a case here and a file
// with its look. Memory series alone make a training run.
func lookOf(tl *timeline.Timeline) *look {
	switch {
	case tl == nil:
		return &collectiveLook
	case tl.RLHF != nil:
		return &rlhfLook
	case tl.Async != nil:
		return &asyncLook
	case tl.Split != nil:
		return &splitLook
	case tl.Inference != nil:
		return &servingLook
	case tl.Training != nil || len(tl.Memory) > 0:
		return &trainingLook
	}
	return &collectiveLook
}

// collectiveLook draws a collective or a data-parallel lesson: GPUs
// coloured by state, chunks outlined by phase, every GPU (or every k-th)
// in the strip.
var collectiveLook = look{
	rows:     everyGPURows,
	legend:   collectiveEntries,
	caption:  collectiveCaption,
	traffic:  collectiveTraffic,
	memGPUs:  stripGPUs,
	memParts: trainingMemParts,
}

// everyGPURows shows every GPU in the strip, or every k-th of many.
func everyGPURows(tl *timeline.Timeline) stripRows { return chooseRows(tl, false) }

// collectiveEntries is the legend of a collective: the GPU states and the
// chunks' phases (none when no chunk moves, as on one GPU).
func collectiveEntries(f *Frames) []legendEntry {
	if f.tl.Fidelity == timeline.Measured {
		// A profiler's trace says which kernel ran, not which pass it
		// belonged to: its compute is kernels by class, not forward or
		// backward.
		return measuredEntries(f.tl)
	}
	if len(f.innet) > 0 {
		return inNetworkEntries(f)
	}
	if f.channels > 1 && f.tl.Transfers.Len() > 0 {
		return channelEntries(f, f.channels, f.several)
	}
	if f.tl.Transfers.Len() == 0 {
		return slices.Clone(legendEntries[:len(legendEntries)-2])
	}
	return slices.Clone(legendEntries[:])
}

// collectiveCaption names the collective step in flight.
func collectiveCaption(f *Frames, t units.Time, live []int32) string {
	return stepCaptionOf(f.tl, t, live, f.steps)
}

// collectiveTraffic is a pipeline message, or the purpose of x's
// collective.
func collectiveTraffic(tl *timeline.Timeline, x timeline.Transfer) string {
	if x.Phase == trafficPP {
		return trafficPP
	}
	if c := x.Collective; c >= 0 && c < len(tl.Collectives) {
		return tl.Collectives[c].Purpose
	}
	return trafficOther
}

// stripGPUs gives the strip's rows a memory bar each.
func stripGPUs(f *Frames) []int { return f.rows.gpus }
