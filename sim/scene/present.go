package scene

import (
	"slices"
	"sort"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// PresenterEvents lists, sorted and unique, the instants a presenter
// steps to with PageDown: 0, every start of an op (a span) and every start
// of a collective's step, and the end of the run. Ends of ops are left
// out: on a clicker each press should show something new begin.
func PresenterEvents(tl *timeline.Timeline) []units.Time {
	if tl == nil {
		return nil
	}
	ts := []units.Time{0, tl.End}
	for i := range tl.Spans {
		ts = append(ts, tl.Spans[i].Start)
	}
	for _, s := range stepStarts(tl) {
		ts = append(ts, s.at)
	}
	for i := range tl.Collectives { // analytic runs: one span per collective
		ts = append(ts, tl.Collectives[i].Start)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return slices.Compact(ts)
}

// NextEvent is the first presenter event after t, or t at the end.
func NextEvent(events []units.Time, t units.Time) units.Time {
	i, found := slices.BinarySearch(events, t)
	if found {
		i++
	}
	if i < len(events) {
		return events[i]
	}
	return t
}

// PrevEvent is the last presenter event before t, or t at the start.
func PrevEvent(events []units.Time, t units.Time) units.Time {
	if i, _ := slices.BinarySearch(events, t); i > 0 {
		return events[i-1]
	}
	return t
}

// stepStart is the start of step of collective c.
type stepStart struct {
	at      units.Time
	c, step int
	phase   string
}

// stepStarts lists when each step of each collective first sends.
func stepStarts(tl *timeline.Timeline) []stepStart {
	first := map[[2]int]int{} // (collective, step) → index in out
	var out []stepStart
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		if x.Collective < 0 || x.Collective >= len(tl.Collectives) {
			continue
		}
		k := [2]int{x.Collective, x.Step}
		if j, ok := first[k]; ok {
			out[j].at = min(out[j].at, x.Start)
			continue
		}
		first[k] = len(out)
		out = append(out, stepStart{at: x.Start, c: x.Collective, step: x.Step, phase: x.Phase})
	}
	return out
}

// Caption says in one line what last began at or before t: "stage 2
// starts backward of microbatch 3", "GPU 0 starts forward", "ring
// all-reduce: reduce-scatter step 2 of 6 starts". Ops that begin together
// are counted ("on 8 GPUs"); a collective step that begins with them wins,
// being the rarer event. It returns "" before anything begins.
func Caption(tl *timeline.Timeline, t units.Time) string {
	if tl == nil {
		return ""
	}
	var spanAt units.Time = -1
	for i := range tl.Spans {
		if s := tl.Spans[i].Start; s <= t && s > spanAt {
			spanAt = s
		}
	}
	var step *stepStart
	steps := stepStarts(tl)
	totals := map[int]int{}
	for i := range steps {
		s := &steps[i]
		totals[s.c] = max(totals[s.c], s.step+1)
		if s.at <= t && (step == nil || s.at > step.at || (s.at == step.at && s.c < step.c)) {
			step = s
		}
	}
	if step != nil && step.at >= spanAt {
		c := &tl.Collectives[step.c]
		text := collectiveName(c) + ": "
		if step.phase != "" {
			text += step.phase + " "
		}
		return text + "step " + itoa(step.step+1) + " of " + itoa(totals[step.c]) + " starts"
	}
	for i := range tl.Collectives { // analytic: a collective as one span
		if c := &tl.Collectives[i]; c.Start <= t && c.Start > spanAt && tl.Fidelity == "analytic" {
			return collectiveName(c) + " starts (one α–β span)"
		}
	}
	if spanAt < 0 {
		return ""
	}
	return spansCaption(tl, spanAt)
}

// spansCaption names the ops that start at instant at.
func spansCaption(tl *timeline.Timeline, at units.Time) string {
	var first *timeline.Span
	n, same := 0, true
	pipeline := false
	for i := range tl.Spans {
		s := &tl.Spans[i]
		pipeline = pipeline || s.Stage > 0 || s.Microbatch > 0
		if s.Start != at {
			continue
		}
		n++
		if first == nil {
			first = s
		} else if s.Kind != first.Kind || s.Stage != first.Stage || s.Microbatch != first.Microbatch {
			same = false
		}
	}
	who := gpuName(tl, first.GPU)
	if pipeline {
		who = "stage " + itoa(first.Stage)
	}
	text := who + " starts " + opName(first.Kind)
	if pipeline {
		text += " of microbatch " + itoa(first.Microbatch)
	}
	switch {
	case n > 1 && same:
		text += " (on " + itoa(n) + " GPUs)"
	case n == 2:
		text += " (and 1 more op)"
	case n > 2:
		text += " (and " + itoa(n-1) + " more ops)"
	}
	return text
}

// opName is a span kind in a sentence.
func opName(k timeline.Kind) string {
	switch k {
	case timeline.BackwardWeight:
		return "weight gradients"
	case timeline.TPComm:
		return "tensor-parallel communication"
	case timeline.CPComm:
		return "context-parallel communication"
	case timeline.EPComm:
		return "expert-parallel communication"
	case timeline.Decode:
		return "decode step"
	case timeline.Host:
		return "host work (the GPU waits)"
	}
	return string(k)
}

// captionBand is the height of presenter mode's caption line at 960×600.
const captionBand = 34

// withCaption lays the frame out below a caption band and writes Caption
// in it: presenter mode's "what just happened". The band is at the top,
// where an embedded demo's playback bar never covers it.
func (f *Frames) withCaption(t units.Time, opt Options, build func(Options) DrawList) DrawList {
	w, h := opt.size()
	s := min(w/DefaultWidth, h/DefaultHeight)
	band := captionBand * max(s, 0.7) * opt.textScale()
	inner := opt
	inner.Height = max(h-band, MinSize)
	dl := build(inner)
	dl.Height = h
	if f.tl == nil || len(f.tl.GPUs) == 0 {
		return dl
	}
	for i := range dl.Items {
		dl.Items[i].Y += band
		dl.Items[i].Y2 += band
	}
	size := 15 * max(s, 0.7) * opt.textScale()
	text := truncate(Caption(f.tl, t), size, w-24*s)
	dl.Items = append(dl.Items,
		Item{ID: "present/band", Shape: Rect, X: 0, Y: 0, W: w, H: band, Fill: colRowShade},
		Item{ID: "present/caption", Shape: Text, X: w / 2, Y: band/2 + size*0.35, Text: text, Size: size, Fill: colText, Anchor: AnchorMiddle, Bold: true})
	return dl
}
