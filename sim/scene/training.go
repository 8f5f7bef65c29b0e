package scene

import (
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// trainingLook draws a training run (Timeline.Training, or memory series):
// the metrics and memory column, the span kinds and traffic kinds in the
// legend, one strip row per pipeline stage beyond maxRowsPerGPU GPUs.
var trainingLook = look{
	training:   true,
	labelSpans: true,
	rows:       stageRows,
	metrics:    trainingRunMetrics,
	legend:     trainingLegend,
	caption:    trainingRunCaption,
	traffic:    collectiveTraffic,
	memGPUs:    stripGPUs,
	memParts:   reserveMemParts,
}

// stageRows shows every GPU in the strip, or one per pipeline stage of
// many.
func stageRows(tl *timeline.Timeline) stripRows { return chooseRows(tl, true) }

func trainingRunMetrics(tl *timeline.Timeline) *metrics {
	m := trainingMetrics(tl, nil)
	m.lines = m.trainingLines()
	return &m
}

func trainingLegend(f *Frames) []legendEntry { return trainingEntries(f) }

// trainingRunCaption names the schedule ("1f1b pipeline") and the traffic
// in flight, or the recovery under way.
func trainingRunCaption(f *Frames, t units.Time, live []int32) string {
	if r := recoveryCaption(f.tl, t); r != "" {
		return r
	}
	head := "training"
	if tr := f.tl.Training; tr != nil && tr.Schedule != "" && pipelined(f.tl) {
		head = tr.Schedule + " pipeline"
	}
	return trainingCaption(f.tl, t, live, head)
}

// pipelined reports whether a run has a pipeline: some span runs a stage
// other than 0 (with pp 1 the schedule is named but nothing is piped).
func pipelined(tl *timeline.Timeline) bool {
	for i := range tl.Spans {
		if tl.Spans[i].Stage > 0 {
			return true
		}
	}
	return false
}

// trainingCaption is, for the caption line of a training run, head (what
// runs: "1f1b pipeline", a serving plan) and the communication in flight
// at t (live: the transfers in flight).
func trainingCaption(tl *timeline.Timeline, t units.Time, live []int32, head string) string {
	text := head
	if tl.Fidelity == "analytic" {
		text += " · analytic collectives"
	}
	pp := 0
	for _, i := range live {
		if tl.Transfers.At(int(i)).Phase == trafficPP {
			pp++
		}
	}
	if pp > 0 {
		text += " · " + itoa(pp) + " pipeline message"
		if pp > 1 {
			text += "s"
		}
	}
	// The first collective in flight names itself, unless subnetwork
	// groups are summing: then the GPUs of each group.
	var other, groups string
	for i := range tl.Collectives {
		c := &tl.Collectives[i]
		switch {
		case c.Start > t || t >= c.End || c.Purpose == "" || c.Purpose == trafficPP:
		case c.Purpose == trafficSDP: // each group once, however many buckets
			g := " · GPUs "
			for j, x := range c.GPUs {
				if j > 0 {
					g += ","
				}
				g += itoa(x)
			}
			if !strings.Contains(groups+" ·", g+" ·") {
				groups += g
			}
		case other == "":
			other = " · " + trafficLabel(c.Purpose) + ": " + collectiveName(c)
		}
	}
	if groups != "" {
		return text + " · " + trafficLabel(trafficSDP) + groups
	}
	return text + other
}

// trainingLines are the rows of a training run's metrics box: what, and
// its value.
func (m metrics) trainingLines() [][2]string {
	lines := [][2]string{{"iteration", m.iteration.String()}}
	if m.step > 0 {
		lines = append(lines, [2]string{"steady step", m.step.String()})
	}
	if m.iterations > 0 {
		done := itoa(m.iterations) + " steps"
		if m.lost > 0 {
			done += ", " + itoa(m.lost) + " lost"
		}
		lines = [][2]string{{"run", m.iteration.String()}, {"iterations", done}}
	}
	if m.tokensPerSecond > 0 {
		lines = append(lines, [2]string{"throughput", siCount(m.tokensPerSecond) + " tokens/s"})
	}
	if m.mfu > 0 {
		lines = append(lines, [2]string{"MFU", percent(m.mfu)})
	}
	lines = append(lines, [2]string{"bubble", percent(m.bubble)})
	return m.peakLine(lines)
}

// trainingEntries is the legend of a training run: the span kinds and the
// traffic kinds it holds, then extra, then idle.
func trainingEntries(f *Frames, extra ...legendEntry) []legendEntry {
	kinds, traffic := presentKinds(f)
	var out []legendEntry
	for _, k := range kinds {
		c, _ := kindColor(k)
		out = append(out, legendEntry{string(k), kindLabel(k), c, Color{}})
	}
	for _, k := range traffic {
		out = append(out, legendEntry{"traffic-" + k, trafficLabel(k), trafficColor(k), Color{}})
	}
	out = append(out, extra...)
	return append(out, legendEntry{"idle", "idle", stateStyle[Idle].fill, Color{}})
}

// legendKinds and legendTraffic order the legend of a training run.
var (
	legendKinds = [...]timeline.Kind{timeline.Forward, timeline.Backward, timeline.BackwardWeight,
		timeline.Optimizer, timeline.TPComm, timeline.CPComm, timeline.EPComm,
		timeline.Prefill, timeline.Decode, timeline.Sample, timeline.Host}
	legendTraffic = [...]string{trafficPP, trafficDP, trafficSDP, trafficZeRO, trafficActivations, trafficGradients, trafficModel}
)

// presentKinds lists the span kinds and traffic kinds the run holds.
func presentKinds(f *Frames) ([]timeline.Kind, []string) {
	tl := f.tl
	var seenK [len(legendKinds)]bool
	for i := range tl.Spans {
		for k, kind := range legendKinds {
			if tl.Spans[i].Kind == kind {
				seenK[k] = true
			}
		}
	}
	var seenT [len(legendTraffic)]bool
	mark := func(kind string) {
		for k, tk := range legendTraffic {
			if kind == tk {
				seenT[k] = true
			}
		}
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		mark(f.look.traffic(tl, x))
	}
	for i := range tl.Collectives {
		mark(tl.Collectives[i].Purpose)
	}
	var kinds []timeline.Kind
	for k, ok := range seenK {
		if ok {
			kinds = append(kinds, legendKinds[k])
		}
	}
	var traffic []string
	for k, ok := range seenT {
		if ok {
			traffic = append(traffic, legendTraffic[k])
		}
	}
	return kinds, traffic
}

// metrics are the headline numbers of a training run shown on screen.
type metrics struct {
	iteration       units.Time
	step            units.Time // a staggered run's steady step (Training.Step); 0 otherwise
	tokensPerSecond float64
	mfu             float64
	bubble          float64
	peak, capacity  units.Bytes // the largest peak over GPUs, and that GPU's HBM
	hbm             units.Bytes // the largest HBM of all, which the memory panel's title names
	oom             int         // GPUs whose peak exceeds their HBM
	nearOOM         int         // GPUs whose peak is above 90% of their HBM and within it
	// iterations and lost count the completed and aborted iterations of
	// a multi-iteration run (0: a single iteration).
	iterations, lost int
	// lines are the rows of the metrics box, what and its value, as the
	// run's look writes them.
	lines [][2]string
}

// trainingMetrics computes, in one pass over the spans and the GPUs, the
// numbers Timeline.Summarize reports for a training run (the test checks
// that they agree). Summarize also works out the exposed communication,
// which takes far longer on thousands of GPUs and is not shown. The peak
// memory is over the GPUs counts accepts (nil: every GPU).
func trainingMetrics(tl *timeline.Timeline, counts func(*timeline.Memory) bool) metrics {
	m := metrics{iteration: tl.End, bubble: tl.BubbleFraction()}
	if tr := tl.Training; tr != nil {
		secs := tl.End.Seconds()
		if tr.Step > 0 { // staggered replicas: each finishes a step this often
			m.step, secs = tr.Step, tr.Step.Seconds()
		}
		if secs > 0 {
			m.tokensPerSecond = tr.Tokens / secs
			if peak := tr.PeakFLOPS * float64(len(tl.GPUs)); peak > 0 {
				m.mfu = tr.ModelFLOPs / secs / peak
			}
		}
	}
	for _, it := range tl.Iterations {
		if it.Aborted {
			m.lost++
		} else {
			m.iterations++
		}
	}
	for i := range tl.Memory {
		mem := &tl.Memory[i]
		m.hbm = max(m.hbm, mem.Capacity)
		if counts != nil && !counts(mem) {
			continue
		}
		if mem.Peak > m.peak {
			m.peak, m.capacity = mem.Peak, mem.Capacity
		}
		if mem.OOM() {
			m.oom++
		}
		if mem.NearOOM() && tl.Training != nil {
			m.nearOOM++
		}
	}
	return m
}

// peakLine ends the metrics panel's lines with the peak memory and the
// HBM it fills, when the run has memory.
func (m metrics) peakLine(lines [][2]string) [][2]string {
	if m.peak > 0 {
		v := gib(m.peak)
		if m.capacity > 0 {
			v += " of " + gib(m.capacity)
		}
		lines = append(lines, [2]string{"peak memory", v})
	}
	return lines
}
