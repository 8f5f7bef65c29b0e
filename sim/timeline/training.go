package timeline

import "paraplay/sim/units"

// summarizeTraining adds a training run's metrics to s; compute[g] holds
// GPU g's compute-stream spans (not communication).
func (tl *Timeline) summarizeTraining(s *Summary, compute [][]span) {
	s.BubbleFraction = tl.BubbleFraction()
	tl.summarizeMemory(s)
	if tl.Training == nil {
		return
	}
	tr := tl.Training
	s.Schedule, s.Warnings = tr.Schedule, tr.Warnings
	if secs := tl.End.Seconds(); secs > 0 {
		s.TokensPerSecond = tr.Tokens / secs
		if peak := tr.PeakFLOPS * float64(len(tl.GPUs)); peak > 0 {
			s.MFU = tr.ModelFLOPs / secs / peak
			s.HFU = tr.HardwareFLOPs / secs / peak
		}
	}
	s.ExposedBy = tl.exposedByKind(compute)
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
		g.PeakMemory, g.PeakInFlight, g.OOM = m.Peak, m.PeakInFlight, m.OOM()
		g.Memory = map[string]units.Bytes{
			"parameters": m.Parameters, "gradients": m.Gradients, "optimizer_states": m.OptimizerStates,
			"buffers": m.Buffers, "activations": m.Peak - m.Static(),
		}
		if len(m.KVCache) > 0 {
			kv := m.KVAtPeak()
			g.Memory["kv_cache"], g.Memory["activations"] = kv, m.Peak-m.Static()-kv
		}
	}
}

// BubbleFraction is, on the GPU where it is largest, the idle share of the
// window from its first pipeline op to its last (forward, backward and
// weight-gradient spans, and the communication that blocks them).
func (tl *Timeline) BubbleFraction() float64 {
	type window struct {
		start, end, busy units.Time
		seen             bool
	}
	w := make([]window, len(tl.GPUs))
	for _, sp := range tl.Spans {
		if sp.Kind == Optimizer || sp.GPU < 0 || sp.GPU >= len(w) {
			continue
		}
		x := &w[sp.GPU]
		if !x.seen || sp.Start < x.start {
			x.start = sp.Start
		}
		x.end = max(x.end, sp.End)
		x.busy += sp.End - sp.Start
		x.seen = true
	}
	var worst float64
	for _, x := range w {
		if x.seen && x.end > x.start {
			worst = max(worst, float64(x.end-x.start-x.busy)/float64(x.end-x.start))
		}
	}
	return worst
}

// exposedByKind is, for each kind of communication, the time per GPU
// (averaged over GPUs) during which it ran and the GPU computed nothing.
func (tl *Timeline) exposedByKind(compute [][]span) map[string]float64 {
	n := len(tl.GPUs)
	byKind := map[string][][]span{}
	add := func(kind string, gpu int, iv span) {
		if gpu < 0 || gpu >= n {
			return // Validate reports it
		}
		if byKind[kind] == nil {
			byKind[kind] = make([][]span, n)
		}
		byKind[kind][gpu] = append(byKind[kind][gpu], iv)
	}
	for _, sp := range tl.Spans {
		switch sp.Kind {
		case TPComm:
			add("tp", sp.GPU, span{sp.Start, sp.End})
		case CPComm:
			add("cp", sp.GPU, span{sp.Start, sp.End})
		case EPComm:
			add("ep", sp.GPU, span{sp.Start, sp.End})
		}
	}
	purpose := func(c int) string {
		if c < 0 || c >= len(tl.Collectives) || tl.Collectives[c].Purpose == "" {
			return "pp"
		}
		return tl.Collectives[c].Purpose
	}
	detailed := make([]bool, len(tl.Collectives))
	for _, x := range tl.Transfers {
		k := purpose(x.Collective)
		add(k, x.Src, span{x.Start, x.End})
		add(k, x.Dst, span{x.Start, x.End})
		if x.Collective >= 0 && x.Collective < len(detailed) {
			detailed[x.Collective] = true
		}
	}
	for i, c := range tl.Collectives {
		if detailed[i] || c.Purpose == "" {
			continue
		}
		for _, g := range c.GPUs {
			add(c.Purpose, g, span{c.Start, c.End})
		}
	}
	out := map[string]float64{}
	for kind, per := range byKind {
		var total units.Time
		for g := range per {
			u := union(per[g])
			if kind == "tp" || kind == "cp" || kind == "ep" {
				total += length(u) // these block the compute stream
				continue
			}
			total += length(u) - length(intersect(u, union(compute[g])))
		}
		out[kind] = units.Time(total / units.Time(max(n, 1))).Seconds()
	}
	return out
}
