package kineto

import (
	"cmp"
	"fmt"
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// RecordName is the key of a measured run's record in Timeline.Extra.
const RecordName = "measured"

// rankGPU is one GPU of the imported run: a device of one trace.
type rankGPU struct {
	trace  *Trace
	device int16
	origin units.Time // the trace's clock at the run's time 0
}

// gpus lists the imported GPUs in rank order, then device: each device
// with GPU work in a trace (one per rank in the usual one process per GPU),
// or device 0 for a trace with none, so that no rank goes missing. Two
// traces of one rank are an error.
func gpus(traces []*Trace) ([]rankGPU, error) {
	var out []rankGPU
	for _, t := range traces {
		devs := map[int16]bool{}
		for i := range t.Kernels {
			devs[t.Kernels[i].Device] = true
		}
		if len(devs) == 0 {
			devs[0] = true
		}
		o := origin(t)
		keys := make([]int16, 0, len(devs))
		for d := range devs {
			keys = append(keys, d)
		}
		sortStable(keys, cmpInt)
		for _, d := range keys {
			out = append(out, rankGPU{t, d, o})
		}
	}
	sortStable(out, func(a, b rankGPU) int {
		return cmp.Or(cmp.Compare(rankOf(a.trace), rankOf(b.trace)), cmp.Compare(a.device, b.device))
	})
	for i := 1; i < len(out); i++ {
		a, b := out[i-1], out[i]
		if a.trace != b.trace && rankOf(a.trace) == rankOf(b.trace) && a.device == b.device && rankOf(a.trace) >= 0 {
			return nil, fmt.Errorf("kineto: %s and %s both hold rank %d (device %d): import one trace per rank", a.trace.Name, b.trace.Name, rankOf(a.trace), a.device)
		}
	}
	return out, nil
}

// rankOf is the rank a trace is sorted by: ParaPlay's GPU id, else
// distributedInfo's rank (-1 without one).
func rankOf(t *Trace) int {
	if t.ParaPlay != nil {
		return t.ParaPlay.GPU
	}
	return t.Rank
}

// origin is the instant of the trace's clock that becomes the run's 0:
// its first profiler step or GPU activity, whichever is first. Each rank
// starts at 0: the hosts' clocks of a cluster are not synchronised to the
// microsecond, and profilers start every rank's step together.
func origin(t *Trace) units.Time {
	o, any := units.MaxTime, false
	if len(t.Kernels) > 0 {
		o, any = t.Kernels[0].Start, true
	}
	if len(t.Steps) > 0 {
		o, any = min(o, t.Steps[0].Start), true
	}
	if !any || t.ParaPlay != nil {
		return 0 // ParaPlay writes its run's own clock
	}
	return o
}

// Timeline converts the traces of a run (one per rank) into a timeline:
// a GPU per rank (per device of a rank that used several), its kernels,
// copies and sets as the spans of its stream, and its NCCL kernels as
// collectives. Each rank's clock starts at 0 (origin). A GPU has one
// stream in a timeline: where kernels of two CUDA streams overlap, the
// later one's span starts where the earlier ended (one it hides entirely
// is left out), so a GPU's spans cover exactly the union of its work; the
// collectives keep their own intervals. A real trace's collective is one
// per rank and kernel (its peers' kernels are in other files, their clocks
// apart); a trace ParaPlay wrote (WriteRank) gives back the timeline it
// was written from, its collectives joined across the ranks imported.
// Extra[RecordName] holds what the traces say beyond that (Record), for
// real traces only.
func Timeline(traces []*Trace) (*timeline.Timeline, error) {
	if len(traces) == 0 {
		return nil, fmt.Errorf("kineto: no trace to import")
	}
	gs, err := gpus(traces)
	if err != nil {
		return nil, err
	}
	tl := &timeline.Timeline{Title: title(traces), Fidelity: timeline.Measured}
	rec := &Record{}
	measured := false
	for i, g := range gs {
		tl.GPUs = append(tl.GPUs, gpuOf(i, g))
		if g.trace.ParaPlay == nil {
			measured = true
		} else if g.trace.ParaPlay.Fidelity != "" {
			tl.Fidelity = g.trace.ParaPlay.Fidelity
		}
		rec.GPUs = append(rec.GPUs, rankInfo(i, g))
	}
	n := 0
	for _, t := range traces {
		n += len(t.Kernels) - len(t.NCCL)
	}
	if n > 0 {
		tl.Spans = make([]timeline.Span, 0, n) // the most there can be: no growth, no copies
	}
	for i, g := range gs {
		tl.Spans = appendSpans(tl.Spans, i, g)
	}
	sortStable(tl.Spans, func(a, b timeline.Span) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU))
	})
	tl.Collectives = collectives(gs)
	for _, s := range tl.Spans {
		tl.End = max(tl.End, s.End)
	}
	for _, c := range tl.Collectives {
		tl.End = max(tl.End, c.End)
	}
	if measured {
		tl.Extra = map[string]timeline.Record{RecordName: rec}
	}
	if err := tl.Validate(); err != nil {
		return nil, fmt.Errorf("kineto: the imported run is not a valid timeline: %w", err)
	}
	return tl, nil
}

// title is the run's title: the one ParaPlay wrote, else the files'.
func title(traces []*Trace) string {
	if m := traces[0].ParaPlay; m != nil && m.Title != "" {
		return m.Title
	}
	var names []string
	for _, t := range traces {
		names = append(names, t.Name)
	}
	if len(names) > 3 {
		names = append(names[:2], fmt.Sprintf("… (%d files)", len(traces)))
	}
	return "Measured: " + strings.Join(names, ", ")
}

// gpuOf is the timeline's GPU i for g.
func gpuOf(i int, g rankGPU) timeline.GPU {
	if m := g.trace.ParaPlay; m != nil {
		return timeline.GPU{ID: i, Name: m.Name, Node: m.Node, Role: m.Role}
	}
	name, node := fmt.Sprintf("trace %s", g.trace.Name), 0
	if r := g.trace.Rank; r >= 0 {
		name = fmt.Sprintf("rank %d", r)
		if g.trace.HostGPUs > 0 {
			node = r / g.trace.HostGPUs // ranks fill hosts in order, as torchrun places them
		}
	}
	if hasOtherDevice(g) {
		name += fmt.Sprintf(" GPU %d", g.device)
	}
	return timeline.GPU{ID: i, Name: name, Node: node}
}

// hasOtherDevice reports whether g's trace has work on another device.
func hasOtherDevice(g rankGPU) bool {
	for i := range g.trace.Kernels {
		if g.trace.Kernels[i].Device != g.device {
			return true
		}
	}
	return false
}

// appendSpans appends GPU gpu's activities other than collectives, in
// start order, each clipped to start where the GPU's previous span ended.
func appendSpans(spans []timeline.Span, gpu int, g rankGPU) []timeline.Span {
	var last units.Time = -1
	for i := range g.trace.Kernels {
		k := &g.trace.Kernels[i]
		if k.Device != g.device || k.Class == Collective {
			continue
		}
		s := timeline.Span{GPU: gpu, Kind: k.Class.Kind(), Label: g.trace.Names[k.Name],
			Start: max(k.Start-g.origin, last), End: k.End - g.origin}
		if k.Class == Spanned {
			m := g.trace.ParaPlay.spans[k.Ref]
			s.Kind, s.Microbatch, s.Stage, s.Iteration = m.kind, m.microbatch, m.stage, m.iteration
		}
		if s.End <= s.Start {
			continue // hidden under an earlier kernel, or of no length
		}
		spans = append(spans, s)
		last = s.End
	}
	return spans
}

// collectives lists the NCCL kernels as collectives: ParaPlay's joined by
// their index in the run, in that order, then each real kernel on its own,
// by start and GPU.
func collectives(gs []rankGPU) []timeline.Collective {
	byIndex := map[int32]*timeline.Collective{}
	gpuOfID := map[int]int{} // ParaPlay GPU id → imported GPU
	for i, g := range gs {
		if g.trace.ParaPlay != nil {
			gpuOfID[g.trace.ParaPlay.GPU] = i
		}
	}
	var joined []int32
	var real []timeline.Collective
	for i, g := range gs {
		t := g.trace
		for j := range t.Kernels {
			k := &t.Kernels[j]
			if k.Device != g.device || k.Class != Collective {
				continue
			}
			n := t.NCCLOf(k)
			c := timeline.Collective{Name: n.Op, Algorithm: n.Algorithm, Protocol: n.Protocol, Channels: n.Channels,
				Ranks: 1, Bytes: n.Bytes, GPUs: []int{i}, Purpose: n.Purpose, Start: k.Start - g.origin, End: k.End - g.origin}
			if n.Collective < 0 {
				real = append(real, c)
				continue
			}
			if old, ok := byIndex[n.Collective]; ok {
				old.Start, old.End = min(old.Start, c.Start), max(old.End, c.End)
				continue
			}
			c.GPUs = c.GPUs[:0]
			for _, r := range n.Ranks {
				if id, ok := gpuOfID[r]; ok {
					c.GPUs = append(c.GPUs, id)
				}
			}
			c.Ranks = len(c.GPUs)
			byIndex[n.Collective] = &c
			joined = append(joined, n.Collective)
		}
	}
	sortStable(joined, cmpInt)
	var out []timeline.Collective // nil when there are none, as a simulated run has
	for _, idx := range joined {
		out = append(out, *byIndex[idx])
	}
	sortStable(real, func(a, b timeline.Collective) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPUs[0], b.GPUs[0]))
	})
	return append(out, real...)
}
