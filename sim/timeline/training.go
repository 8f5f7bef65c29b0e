package timeline

import (
	"fmt"

	"paraplay/sim/units"
)

// summarizeTraining adds a training run's metrics to s, given every
// device's waits on communication.
func (tl *Timeline) summarizeTraining(s *Summary, waits []deviceWaits) {
	if tl.pipelined() {
		s.BubbleFraction = tl.bubble(waits)
	}
	tl.summarizeMemory(s)
	if tl.Training == nil {
		return
	}
	tr := tl.Training
	s.Warnings = append(append([]string(nil), tr.Warnings...), s.memoryWarnings()...)
	if tl.pipelined() { // without a pipeline there is no schedule to name, nor a bubble
		s.Schedule = tr.Schedule
	}
	if secs := tl.End.Seconds(); secs > 0 {
		s.TokensPerSecond = tr.Tokens / secs
		if peak := tr.PeakFLOPS * float64(len(tl.GPUs)); peak > 0 {
			s.MFU = tr.ModelFLOPs / secs / peak
			s.HFU = tr.HardwareFLOPs / secs / peak
		}
	}
	s.ExposedBy = tl.exposedByKind(waits)
	tl.summarizeCost(s)
}

// summarizeMemory adds each GPU's peak memory and its breakdown, and, in
// a reinforcement-learning run (which tracks memory by pool, not by GPU),
// each GPU's pool's estimate, so that the GPUs' oom agrees with the pools'
// OUT OF MEMORY lines.
func (tl *Timeline) summarizeMemory(s *Summary) {
	if tl.RLHF != nil {
		for _, p := range tl.RLHF.Pools {
			for _, g := range p.GPUs {
				if g >= 0 && g < len(s.GPUs) {
					s.GPUs[g].PeakMemory, s.GPUs[g].OOM = p.PeakMemory, p.OOM()
				}
			}
		}
	}
	for i := range s.GPUs {
		if i >= len(tl.Memory) {
			break
		}
		m := &tl.Memory[i]
		g := &s.GPUs[i]
		// The warning zone is a training run's: a serving engine fills
		// HBM with its KV cache's block pool on purpose.
		g.PeakMemory, g.PeakInFlight, g.OOM, g.NearOOM = m.Peak, m.PeakInFlight, m.OOM(), m.NearOOM() && tl.Training != nil
		g.capacity = m.Capacity
		g.Memory = map[string]units.Bytes{
			"parameters": m.Parameters, "gradients": m.Gradients, "optimizer_states": m.OptimizerStates,
			"buffers": m.Buffers, "activations": m.Peak - m.Static(),
		}
		if r := m.Reserve.Total(); r > 0 {
			g.Memory["reserve"] = r
			if r > s.Reserve.Total() {
				s.Reserve = m.Reserve
			}
		}
		if len(m.KVCache) > 0 {
			kv := m.KVAtPeak()
			g.Memory["kv_cache"], g.Memory["activations"] = kv, m.Peak-m.Static()-kv
		}
	}
}

// BubbleFraction is the pipeline bubble: on the GPU where it is largest,
// the share of the window from its first pipeline op to its last
// (forward, backward and weight-gradient spans) that its stream idles with
// none of its communication in flight. Time waiting on communication is
// exposed communication, not bubble (exposed.go): each instant counts
// once. A run without a pipeline (every span runs stage 0) has none.
func (tl *Timeline) BubbleFraction() float64 {
	if !tl.pipelined() {
		return 0
	}
	return tl.bubble(tl.communicationWaits())
}

// pipelined reports whether some span runs a pipeline stage other than 0.
func (tl *Timeline) pipelined() bool {
	for i := range tl.Spans { // mirrors run the same stages
		if tl.Spans[i].Stage > 0 {
			return true
		}
	}
	return false
}

// bubble is BubbleFraction given the devices' waits.
func (tl *Timeline) bubble(waits []deviceWaits) float64 {
	type window struct {
		start, end units.Time
		seen       bool
	}
	w := make([]window, len(tl.GPUs))
	for sp := range tl.AllSpans() {
		if sp.Kind == Optimizer || !tl.isGPU(sp.GPU) {
			continue
		}
		x := &w[sp.GPU]
		if !x.seen || sp.Start < x.start {
			x.start = sp.Start
		}
		x.end = max(x.end, sp.End)
		x.seen = true
	}
	var worst float64
	for g, x := range w {
		if !x.seen || x.end <= x.start {
			continue
		}
		win := []span{{x.start, x.end}}
		busy := length(intersect(waits[g].stream, win)) + length(intersect(waits[g].waits, win))
		worst = max(worst, float64(x.end-x.start-busy)/float64(x.end-x.start))
	}
	return worst
}

// memoryWarnings is a line for the GPUs whose peak is in the warning zone
// (over NearFraction of their HBM and within it), naming the closest.
func (s *Summary) memoryWarnings() []string {
	var n int
	var worst float64
	for _, g := range s.GPUs {
		if !g.NearOOM {
			continue
		}
		n++
		if g.Memory != nil && g.capacity > 0 {
			worst = max(worst, float64(g.PeakMemory)/float64(g.capacity))
		}
	}
	if n == 0 {
		return nil
	}
	return []string{fmt.Sprintf("peak memory above %.0f%% of HBM on %d of %d GPUs (up to %.1f%%): it fits on paper, "+
		"but the allocator's fragmentation may still run it out of memory", 100*NearFraction, n, len(s.GPUs), 100*worst)}
}
