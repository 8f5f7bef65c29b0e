package timeline

import (
	"cmp"
	"paraplay/sim/collective"
	"paraplay/sim/cost"
	"slices"

	"paraplay/sim/units"
)

// Summary is the headline numbers of a run.
type Summary struct {
	// Title is the run's title.
	Title string `json:"title"`
	// Fidelity says how communication was simulated.
	Fidelity string `json:"fidelity"`
	// Iteration is the time of the whole iteration (Timeline.End).
	Iteration units.Time `json:"iteration_ns"`
	// Compute is the mean, over GPUs, of the time spent computing.
	Compute units.Time `json:"compute_ns"`
	// Communication is the wall time during which at least one link was busy.
	Communication units.Time `json:"communication_ns"`
	// ExposedCommunication is the time a GPU's compute stream waits on
	// communication, averaged over the GPUs (parameter-server hosts, which
	// compute nothing, left out): its spans of blocking communication
	// (tp, cp, ep) and the time it idles inside a collective it takes part
	// in (from its first message in it to its last) or while a pipeline
	// message of its own is in flight. It is what overlap could still hide,
	// and ExposedBy splits it by kind.
	ExposedCommunication units.Time `json:"exposed_communication_ns"`
	// IterationSeconds is Iteration in seconds.
	IterationSeconds float64 `json:"iteration_time_s"`
	// TokensPerSecond is the training throughput (training runs).
	TokensPerSecond float64 `json:"tokens_per_s,omitempty"`
	// MFU is model FLOPs per second over the GPUs' peak (Chowdhery et al.
	// 2022, PaLM, Appendix B); HFU also counts recomputed FLOPs.
	MFU float64 `json:"mfu,omitempty"`
	HFU float64 `json:"hfu,omitempty"`
	// BubbleFraction is the pipeline bubble: on the GPU where it is
	// largest, the share of the window from its first forward to its last
	// backward that it idles with none of its communication in flight
	// (waiting on communication is exposed communication, not bubble);
	// (p−1)/(m+p−1) for GPipe and 1F1B with free messages, 0 without a
	// pipeline.
	BubbleFraction float64 `json:"bubble_fraction"`
	// ExposedBy is ExposedCommunication by kind (tp, cp, ep, pp, dp,
	// zero), in seconds, averaged over the same GPUs; the kinds add up to
	// it. An idle instant with several kinds in flight is shared equally
	// among them.
	ExposedBy map[string]float64 `json:"exposed_comm_s,omitempty"`
	// Schedule is the pipeline schedule of a training run with a
	// pipeline (more than one stage).
	Schedule string `json:"schedule,omitempty"`
	// Warnings repeats the plan's warnings, then says which GPUs' peaks
	// are in the memory warning zone.
	Warnings []string `json:"warnings,omitempty"`
	// Reserve is the largest per-GPU memory reserve by part (CUDA context,
	// workspaces, communicators, allocator); zero when no GPU has one.
	Reserve Reserve `json:"memory_reserve,omitzero"`
	// Collectives lists each collective with its time.
	Collectives []CollectiveSummary `json:"collectives"`
	// GPUs has one entry per GPU.
	GPUs []GPUSummary `json:"gpus"`
	// Iterations lists the iterations of a multi-iteration or faulty
	// training run with the detectors' verdicts (Timeline.Iterations).
	Iterations []Iteration `json:"iterations,omitempty"`
	// Recovery lists the recovery steps after failures.
	Recovery []Recovery `json:"recovery,omitempty"`
	// Async summarises a parameter-server or local-SGD run, nil otherwise.
	Async *AsyncSummary `json:"async,omitempty"`
	// Split summarises a split-learning or federated run, nil otherwise.
	Split *SplitSummary `json:"split,omitempty"`
	// RLHF summarises a reinforcement-learning run, nil otherwise.
	RLHF *RLHFSummary `json:"rlhf,omitempty"`
	// Inference summarises a serving run, nil otherwise.
	Inference *InferenceSummary `json:"inference,omitempty"`
	// Extra holds the reports of the records in Timeline.Extra, by the
	// same names.
	Extra map[string]Report `json:"extra,omitempty"`
	// Estimate is what training to the scenario's token budget costs
	// (training.tokens; package cost): its fields (gpu_hours, cost_usd,
	// energy_kwh, co2_kg, …) sit at the top of the JSON. Nil without a
	// budget.
	*cost.Estimate

	costBasis summaryCost // the iteration as package cost takes it
}

// CollectiveSummary is the time and bandwidth of one collective, in the
// terms nccl-tests reports (NVIDIA/nccl-tests, doc/PERFORMANCE.md).
type CollectiveSummary struct {
	Name      collective.Op `json:"name"`
	Algorithm string        `json:"algorithm"`
	// Protocol and Channels are the Collective's.
	Protocol string      `json:"protocol,omitempty"`
	Channels int         `json:"channels,omitempty"`
	Ranks    int         `json:"ranks"`
	Bytes    units.Bytes `json:"bytes"`
	// Time runs from the collective's first message to its last.
	Time units.Time `json:"time_ns"`
	// AlgBW is S / Time in bytes per second.
	AlgBW units.Bandwidth `json:"algbw"`
	// BusBW is AlgBW × 2(n−1)/n for all-reduce: the per-link rate that
	// nccl-tests compares against the hardware's peak.
	BusBW units.Bandwidth `json:"busbw"`
}

// GPUSummary is one GPU's share of the iteration.
type GPUSummary struct {
	// Rank is the GPU's id, which is its rank in the plan.
	Rank int    `json:"rank"`
	Name string `json:"name"`
	// Compute is the time its compute stream was busy.
	Compute units.Time `json:"compute_ns"`
	// Communication is the time it was sending or receiving.
	Communication units.Time `json:"communication_ns"`
	// Busy is the fraction of the iteration it was computing or communicating.
	Busy float64 `json:"busy_fraction"`
	// PeakMemory is its peak memory (training runs).
	PeakMemory units.Bytes `json:"peak_memory_bytes,omitempty"`
	// Memory is the peak's breakdown by category.
	Memory map[string]units.Bytes `json:"memory,omitempty"`
	// PeakInFlight is the microbatches' activations held at the peak, in
	// stage-equivalents.
	PeakInFlight float64 `json:"peak_inflight_microbatches"`
	// OOM says the peak exceeds the GPU's memory.
	OOM bool `json:"oom"`
	// NearOOM says the peak is in the warning zone: above 90% of the
	// GPU's memory (Memory.NearOOM) and within it; training runs only.
	NearOOM bool `json:"near_oom"`

	capacity units.Bytes // the GPU's HBM, for the warning's figure
}

// Summarize computes the summary of a run: the core figures, then each
// record's report (Record.Report).
func (tl *Timeline) Summarize() Summary {
	s := Summary{Title: tl.Title, Fidelity: tl.Fidelity, Iteration: tl.End}
	compute, comm, busy, allComm := tl.gpuTimes()
	var total units.Time
	for i, g := range tl.GPUs {
		gs := GPUSummary{Rank: g.ID, Name: g.Name, Compute: compute[i], Communication: comm[i]}
		if tl.End > 0 {
			gs.Busy = float64(busy[i]) / float64(tl.End)
		}
		s.GPUs = append(s.GPUs, gs)
		total += compute[i]
	}
	if len(tl.GPUs) > 0 {
		s.Compute = total / units.Time(len(tl.GPUs))
	}
	s.Communication = allComm
	waits := tl.communicationWaits()
	s.ExposedCommunication = tl.meanExposed(waits)
	s.IterationSeconds = tl.End.Seconds()
	tl.summarizeTraining(&s, waits)
	for _, c := range tl.Collectives {
		if c.Purpose == "pp" {
			continue
		}
		cs := CollectiveSummary{Name: c.Name, Algorithm: c.Algorithm, Protocol: c.Protocol, Channels: c.Channels,
			Ranks: c.Ranks, Bytes: c.Bytes, Time: c.End - c.Start}
		if cs.Time > 0 {
			cs.AlgBW = units.Bandwidth(float64(c.Bytes) / cs.Time.Seconds())
			cs.BusBW = cs.AlgBW * units.Bandwidth(busFactor(c.Name, c.Ranks))
		}
		s.Collectives = append(s.Collectives, cs)
	}
	tl.reportRecords(&s)
	return s
}

// gpuTimes is, by GPU, the time it computed, communicated and did either
// (the lengths of the unions of busyIntervals' lists), and the time any
// communication was in flight. It merges as the spans go by (busyTimes)
// when their order allows, else unions busyIntervals' copies.
func (tl *Timeline) gpuTimes() (compute, comm, busy []units.Time, all units.Time) {
	if compute, comm, busy, all, ok := tl.busyTimes(); ok {
		return compute, comm, busy, all
	}
	c, m, allComm := tl.busyIntervals()
	compute, comm, busy = make([]units.Time, len(tl.GPUs)), make([]units.Time, len(tl.GPUs)), make([]units.Time, len(tl.GPUs))
	for i := range tl.GPUs {
		compute[i], comm[i] = length(union(c[i])), length(union(m[i]))
		busy[i] = length(union(append(append([]span{}, c[i]...), m[i]...)))
	}
	return compute, comm, busy, length(union(allComm))
}

// busyIntervals is, by GPU, the intervals it computed and communicated
// (its spans, its messages, the analytic collectives it took part in), and
// the communication over all GPUs. Items on no GPU are left out.
func (tl *Timeline) busyIntervals() (compute, comm [][]span, allComm []span) {
	compute = make([][]span, len(tl.GPUs))
	comm = make([][]span, len(tl.GPUs))
	for sp := range tl.AllSpans() {
		if !tl.isGPU(sp.GPU) {
			continue
		}
		iv := span{sp.Start, sp.End}
		if sp.Kind.IsCommunication() {
			comm[sp.GPU] = append(comm[sp.GPU], iv)
			allComm = append(allComm, iv)
			continue
		}
		compute[sp.GPU] = append(compute[sp.GPU], iv)
	}
	allComm = tl.addOtherComm(comm, allComm)
	return compute, comm, allComm
}

// busFactor converts algorithm bandwidth to bus bandwidth as nccl-tests does.
func busFactor(op collective.Op, n int) float64 {
	nf := float64(n)
	switch op {
	case collective.OpAllReduce:
		return 2 * (nf - 1) / nf
	case collective.OpReduceScatter, collective.OpAllGather, collective.OpAllToAll:
		return (nf - 1) / nf
	}
	return 1
}

type span struct{ start, end units.Time }

// union merges overlapping intervals into a sorted disjoint list.
func union(in []span) []span {
	if len(in) == 0 {
		return nil
	}
	s := append([]span(nil), in...)
	slices.SortFunc(s, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	out := []span{s[0]}
	for _, iv := range s[1:] {
		if last := &out[len(out)-1]; iv.start <= last.end {
			last.end = max(last.end, iv.end)
		} else {
			out = append(out, iv)
		}
	}
	return out
}

// intersect returns the overlap of two sorted disjoint interval lists.
func intersect(a, b []span) []span {
	var out []span
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].start, b[j].start), min(a[i].end, b[j].end)
		if lo < hi {
			out = append(out, span{lo, hi})
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return out
}

func length(s []span) units.Time {
	var t units.Time
	for _, iv := range s {
		t += iv.end - iv.start
	}
	return t
}
