package kineto

import (
	"cmp"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// RankReport is what paraplay run reports of a GPU, measured: one GPU's
// time split by what it did over its window (from its trace's origin to
// its last activity or step), with its kernels and collectives.
//
// The figures are lengths of unions of the GPU's activities, so two
// streams' overlapping kernels count once: Compute is the union of its
// kernels other than collectives, copies and sets (and, in a trace
// ParaPlay wrote, its spans of blocking communication); Memory the union
// of its copies and sets; Communication the union of its collectives
// (and ParaPlay's blocking communication); Idle the window less the union
// of everything. Exposed is the communication with neither compute nor
// memory work beside it, Overlap the rest (Exposed + Overlap =
// Communication), the terms Summarize uses for a simulated run.
type RankReport struct {
	// GPU is the GPU's id in the imported timeline, Name its label.
	GPU  int    `json:"gpu"`
	Name string `json:"name"`
	// File, Rank and WorldSize say where it came from (RankInfo).
	File      string `json:"file"`
	Rank      int    `json:"rank"`
	WorldSize int    `json:"world_size"`
	// Device is the GPU's name from deviceProperties, when listed.
	Device string `json:"device,omitempty"`
	// Window is the time the figures below split.
	Window units.Time `json:"window_ns"`
	// Steps are the ProfilerStep lengths, StepTime their mean (the
	// window when the trace has no steps).
	Steps    []units.Time `json:"steps_ns,omitempty"`
	StepTime units.Time   `json:"step_time_ns"`
	// The window's split (see the type's comment).
	Compute       units.Time `json:"compute_ns"`
	Memory        units.Time `json:"memory_ns"`
	Communication units.Time `json:"communication_ns"`
	Exposed       units.Time `json:"exposed_communication_ns"`
	Overlap       units.Time `json:"overlap_ns"`
	Idle          units.Time `json:"idle_ns"`
	// HostBound is the idle time the GPU waited on its host: gaps after
	// which the next activity's launch call began only once the GPU had
	// gone idle (the CPU launch gaps).
	HostBound units.Time `json:"host_bound_idle_ns"`
	// Launches and RuntimeTime are the host's CUDA runtime calls and the
	// time it spent in them.
	Launches    int        `json:"runtime_calls"`
	RuntimeTime units.Time `json:"runtime_ns"`
	// Classes is the kernels' time by class (summed, not unioned).
	Classes []ClassTime `json:"classes"`
	// Top lists the kernels with the most time, by name, most first.
	Top []KernelTime `json:"top_kernels"`
	// NCCL lists every collective kernel in start order.
	NCCL []NCCLKernel `json:"nccl_kernels"`
}

// ClassTime is the kernels of one class on one GPU.
type ClassTime struct {
	Class Class      `json:"class"`
	Count int        `json:"count"`
	Time  units.Time `json:"time_ns"`
}

// KernelTime is the kernels of one name on one GPU.
type KernelTime struct {
	Name  string     `json:"name"`
	Class Class      `json:"class"`
	Count int        `json:"count"`
	Time  units.Time `json:"time_ns"`
}

// NCCLKernel is one collective kernel, with its bandwidths in the terms
// nccl-tests reports: AlgBW = Bytes / Time, BusBW = AlgBW × its bus factor
// for the group size (collective.BusBWFactor).
type NCCLKernel struct {
	NCCL
	// Name is the kernel's name; Start its start on the run's clock.
	Name  string          `json:"name"`
	Start units.Time      `json:"start_ns"`
	Time  units.Time      `json:"time_ns"`
	AlgBW units.Bandwidth `json:"algbw"`
	BusBW units.Bandwidth `json:"busbw"`
}

// TopKernels is how many kernels RankReport.Top lists.
const TopKernels = 10

// Analyze reports every GPU of the run the traces make (as Timeline
// numbers them).
func Analyze(traces []*Trace) ([]RankReport, error) {
	gs, err := gpus(traces)
	if err != nil {
		return nil, err
	}
	out := make([]RankReport, len(gs))
	for i, g := range gs {
		out[i] = analyze(i, g)
	}
	return out, nil
}

// interval is a half-open stretch of the trace's clock.
type interval struct{ start, end units.Time }

// analyze reports GPU i.
func analyze(i int, g rankGPU) RankReport {
	t := g.trace
	info := rankInfo(i, g)
	r := RankReport{GPU: i, Name: gpuOf(i, g).Name, File: t.Name, Rank: t.Rank, WorldSize: t.WorldSize,
		Device: info.DeviceName, Launches: t.RuntimeCalls, RuntimeTime: t.RuntimeTime}
	var compute, memory, comm, all []interval
	end := g.origin
	byClass := make([]ClassTime, numClasses)
	byName := map[int32]*KernelTime{}
	for j := range t.Kernels {
		k := &t.Kernels[j]
		if k.Device != g.device {
			continue
		}
		iv := interval{k.Start, k.End}
		all = append(all, iv)
		end = max(end, k.End)
		switch {
		case isCommunication(t, k):
			comm = append(comm, iv)
		case k.Class.IsMemory():
			memory = append(memory, iv)
		default:
			compute = append(compute, iv)
		}
		byClass[k.Class].Class = k.Class
		byClass[k.Class].Count++
		byClass[k.Class].Time += k.Dur()
		kt := byName[k.Name]
		if kt == nil {
			kt = &KernelTime{Name: t.Names[k.Name], Class: k.Class}
			byName[k.Name] = kt
		}
		kt.Count++
		kt.Time += k.Dur()
		if k.Class == Collective {
			r.NCCL = append(r.NCCL, ncclKernel(t, k, g.origin))
		}
	}
	for _, s := range t.Steps {
		end = max(end, s.End)
		r.Steps = append(r.Steps, s.End-s.Start)
	}
	r.Window = end - g.origin
	r.StepTime = mean(r.Steps, r.Window)
	compute, memory, comm = union(compute), union(memory), union(comm)
	r.Compute, r.Memory, r.Communication = length(compute), length(memory), length(comm)
	work := union(append(slices.Clone(compute), memory...))
	r.Exposed = r.Communication - overlap(comm, work)
	r.Overlap = r.Communication - r.Exposed
	r.Idle = r.Window - length(all)
	r.HostBound = hostBound(t, g)
	for _, c := range byClass {
		if c.Count > 0 {
			r.Classes = append(r.Classes, c)
		}
	}
	r.Top = top(byName)
	return r
}

// isCommunication reports whether k is communication: a collective, or a
// span of blocking communication ParaPlay wrote.
func isCommunication(t *Trace, k *Kernel) bool {
	return k.Class == Collective || k.Class == Spanned && t.ParaPlay.spans[k.Ref].kind.IsCommunication()
}

// mean is the mean of ts, or whole when there are none.
func mean(ts []units.Time, whole units.Time) units.Time {
	if len(ts) == 0 {
		return whole
	}
	var sum units.Time
	for _, v := range ts {
		sum += v
	}
	return sum / units.Time(len(ts))
}

// ncclKernel describes a collective kernel with its bandwidths.
func ncclKernel(t *Trace, k *Kernel, origin units.Time) NCCLKernel {
	n := NCCLKernel{NCCL: *t.NCCLOf(k), Name: t.Names[k.Name], Start: k.Start - origin, Time: k.Dur()}
	if n.Time > 0 && n.Bytes > 0 {
		n.AlgBW = units.Bandwidth(float64(n.Bytes) / n.Time.Seconds())
		n.BusBW = n.AlgBW * units.Bandwidth(collective.BusBWFactor(string(n.Op), n.GroupSize))
	}
	return n
}

// top is the TopKernels names with the most time, most first (ties by name).
func top(byName map[int32]*KernelTime) []KernelTime {
	all := make([]KernelTime, 0, len(byName))
	for _, k := range byName {
		all = append(all, *k)
	}
	slices.SortFunc(all, func(a, b KernelTime) int { return cmp.Or(cmp.Compare(b.Time, a.Time), cmp.Compare(a.Name, b.Name)) })
	return all[:min(len(all), TopKernels)]
}

// hostBound is the GPU's idle time spent waiting for its host: each gap
// in its work whose next activity's launch call started at or after the
// gap began (the host had not yet asked for it when the GPU ran dry).
func hostBound(t *Trace, g rankGPU) units.Time {
	var sum units.Time
	busyUntil := units.Time(-1 << 62)
	for j := range t.Kernels {
		k := &t.Kernels[j]
		if k.Device != g.device {
			continue
		}
		if k.Start > busyUntil && busyUntil > -1<<62 {
			if l, ok := t.LaunchOf(k); ok && l.Start >= busyUntil {
				sum += k.Start - busyUntil
			}
		}
		busyUntil = max(busyUntil, k.End)
	}
	return sum
}

// union sorts ivs and merges the overlapping ones, in place.
func union(ivs []interval) []interval {
	slices.SortFunc(ivs, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	out := ivs[:0]
	for _, iv := range ivs {
		if iv.end <= iv.start {
			continue
		}
		if n := len(out); n > 0 && iv.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, iv.end)
			continue
		}
		out = append(out, iv)
	}
	return out
}

// length is the length of the union of ivs (which it reorders).
func length(ivs []interval) units.Time {
	var sum units.Time
	for _, iv := range union(ivs) {
		sum += iv.end - iv.start
	}
	return sum
}

// overlap is the length of the intersection of two unions (each sorted
// and disjoint).
func overlap(a, b []interval) units.Time {
	var sum units.Time
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].start, b[j].start), min(a[i].end, b[j].end)
		if hi > lo {
			sum += hi - lo
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return sum
}
