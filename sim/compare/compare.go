package compare

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"paraplay/sim/kineto"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Row is one op class of one rank, per step.
type Row struct {
	// Class names what the time is: "step", "compute", "communication",
	// "exposed communication", "idle", or a collective ("all-reduce"), or
	// a kernel class measured only ("gemm").
	Class string `json:"class"`
	// Measured and Simulated are the times per step; Simulated is -1 for
	// a class the simulation does not have.
	Measured  units.Time `json:"measured_ns"`
	Simulated units.Time `json:"simulated_ns"`
	// Error is (simulated − measured) / measured, 0 when either is
	// missing or measured is 0.
	Error float64 `json:"error"`
}

// Rank is one measured rank against its simulated GPU.
type Rank struct {
	// Rank is the measured rank, GPU the simulated GPU it is set beside.
	Rank int    `json:"rank"`
	GPU  int    `json:"gpu"`
	Name string `json:"name"`
	// Steps is how many profiler steps the measured figures are the mean of.
	Steps int   `json:"steps"`
	Rows  []Row `json:"rows"`
}

// Pairs maps each measured GPU (of the imported timeline, in the order of
// reports) to the simulated GPU of the same rank: its distributedInfo
// rank, or its place when it has none. A rank the simulation lacks is an
// error.
func Pairs(reports []kineto.RankReport, sim *timeline.Timeline) ([]int, error) {
	out := make([]int, len(reports))
	for i, r := range reports {
		g := r.Rank
		if g < 0 {
			g = i
		}
		if g >= len(sim.GPUs) {
			return nil, fmt.Errorf("compare: %s is rank %d, but the scenario has %d GPUs", r.File, g, len(sim.GPUs))
		}
		out[i] = g
	}
	return out, nil
}

// Simulated analyses the simulated GPUs gpus of sim as kineto.Analyze
// analyses traces: each written as a rank's trace and read back.
func Simulated(sim *timeline.Timeline, gpus []int) ([]kineto.RankReport, error) {
	var traces []*kineto.Trace
	for _, g := range gpus {
		var b bytes.Buffer
		if err := kineto.WriteRank(&b, sim, g); err != nil {
			return nil, err
		}
		t, err := kineto.Read(&b, fmt.Sprintf("simulated GPU %d", g), kineto.Limits{MaxBytes: 1 << 40, MaxValue: 1 << 30, MaxEvents: 1 << 28})
		if err != nil {
			return nil, err
		}
		traces = append(traces, t)
	}
	reps := make([]kineto.RankReport, len(gpus))
	for i, t := range traces {
		r, err := kineto.Analyze([]*kineto.Trace{t})
		if err != nil {
			return nil, err
		}
		reps[i] = r[0]
	}
	return reps, nil
}

// Compare sets each measured report beside its simulated one (same index).
func Compare(measured, simulated []kineto.RankReport, gpus []int) []Rank {
	out := make([]Rank, len(measured))
	for i, m := range measured {
		s := simulated[i]
		steps := max(len(m.Steps), 1)
		per := func(t units.Time) units.Time { return t / units.Time(steps) }
		rows := []Row{
			row("step", m.StepTime, s.Window),
			row("compute", per(m.Compute), s.Compute),
			row("communication", per(m.Communication), s.Communication),
			row("exposed communication", per(m.Exposed), s.Exposed),
			row("idle", per(m.Idle), s.Idle),
		}
		rows = append(rows, collectiveRows(m, s, per)...)
		for _, c := range m.Classes {
			switch c.Class {
			case kineto.Collective, kineto.Spanned:
			case kineto.Memcpy, kineto.Memset:
				rows = append(rows, row(c.Class.String()+"s (measured only)", per(c.Time), -1))
			default:
				rows = append(rows, row(c.Class.String()+" kernels (measured only)", per(c.Time), -1))
			}
		}
		out[i] = Rank{Rank: m.Rank, GPU: gpus[i], Name: m.Name, Steps: steps, Rows: rows}
	}
	return out
}

// collectiveRows compares the time in each kind of collective, summed
// over its kernels.
func collectiveRows(m, s kineto.RankReport, per func(units.Time) units.Time) []Row {
	mt, st := map[string]units.Time{}, map[string]units.Time{}
	for _, n := range m.NCCL {
		mt[n.Op.Label()] += n.Time
	}
	for _, n := range s.NCCL {
		st[n.Op.Label()] += n.Time
	}
	var names []string
	for k := range mt {
		names = append(names, k)
	}
	for k := range st {
		if _, ok := mt[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var rows []Row
	for _, k := range names {
		rows = append(rows, row(k, per(mt[k]), st[k]))
	}
	return rows
}

func row(class string, measured, simulated units.Time) Row {
	r := Row{Class: class, Measured: measured, Simulated: simulated}
	if measured > 0 && simulated >= 0 {
		r.Error = float64(simulated-measured) / float64(measured)
	}
	return r
}

// Combine is one timeline of both runs for a Chrome trace: for each
// measured GPU i, GPU 2i its measured work ("… measured") and GPU 2i+1
// the simulated GPU gpus[i]'s ("… simulated"), each with its spans and
// collectives (a simulated collective keeps the paired GPUs it spans;
// messages, links and records are left out). Its fidelity is
// timeline.Measured, so that the Chrome trace lists the collectives.
func Combine(measured, sim *timeline.Timeline, gpus []int) (*timeline.Timeline, error) {
	if len(gpus) != len(measured.GPUs) {
		return nil, fmt.Errorf("compare: %d pairs for %d measured GPUs", len(gpus), len(measured.GPUs))
	}
	tl := &timeline.Timeline{Title: measured.Title + " beside " + sim.Title, Fidelity: timeline.Measured}
	simAt := map[int]int{} // simulated GPU → combined GPU
	for i, g := range measured.GPUs {
		tl.GPUs = append(tl.GPUs, timeline.GPU{ID: 2 * i, Name: g.Name + " measured", Node: g.Node},
			timeline.GPU{ID: 2*i + 1, Name: sim.GPUs[gpus[i]].Name + " simulated", Node: g.Node})
		simAt[gpus[i]] = 2*i + 1
	}
	for _, s := range measured.Spans {
		s.GPU *= 2
		tl.Spans = append(tl.Spans, s)
	}
	for s := range sim.AllSpans() {
		if at, ok := simAt[s.GPU]; ok {
			s.GPU = at
			tl.Spans = append(tl.Spans, s)
		}
	}
	slices.SortStableFunc(tl.Spans, func(a, b timeline.Span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU)) })
	for _, c := range measured.Collectives {
		c.GPUs = mapGPUs(c.GPUs, func(g int) (int, bool) { return 2 * g, true })
		tl.Collectives = append(tl.Collectives, c)
	}
	for _, c := range sim.Collectives {
		c.GPUs = mapGPUs(c.GPUs, func(g int) (int, bool) { at, ok := simAt[g]; return at, ok })
		if c.Ranks = len(c.GPUs); c.Ranks > 0 {
			tl.Collectives = append(tl.Collectives, c)
		}
	}
	for _, s := range tl.Spans {
		tl.End = max(tl.End, s.End)
	}
	for _, c := range tl.Collectives {
		tl.End = max(tl.End, c.End)
	}
	return tl, tl.Validate()
}

// mapGPUs maps ids through f, dropping those it does not keep.
func mapGPUs(ids []int, f func(int) (int, bool)) []int {
	out := make([]int, 0, len(ids))
	for _, g := range ids {
		if at, ok := f(g); ok {
			out = append(out, at)
		}
	}
	return out
}
