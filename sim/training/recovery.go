package training

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// victims lists the GPUs stop event f takes down that still run: its GPU,
// or every GPU of its node for a preemption.
func (d *driver) victims(f scenario.Fault) []int {
	var gpus []int
	if f.Kind == scenario.Preempt {
		for g, info := range d.out.GPUs {
			if info.Node == f.Node {
				gpus = append(gpus, g)
			}
		}
	} else {
		gpus = []int{f.GPU}
	}
	var out []int
	for _, g := range gpus {
		if !d.gpuOut[g] && d.running(g) {
			out = append(out, g)
		}
	}
	return out
}

// nextStop finds the first stop event not yet handled that falls in the
// iteration just run (end long, starting at d.now) and hits a GPU still
// running; it returns its index and its time on the iteration's clock, or
// −1. An event that fell during a recovery takes effect when the next
// iteration starts.
func (d *driver) nextStop(end units.Time) (int, units.Time) {
	for k, f := range d.stops {
		if d.handled[k] {
			continue
		}
		if f.At >= d.now+end {
			return -1, 0
		}
		if len(d.victims(f)) == 0 {
			d.handled[k] = true // it hits only GPUs already gone
			continue
		}
		return k, max(0, f.At-d.now)
	}
	return -1, 0
}

// fail cuts the iteration tl at the stop (at, on its clock), then plays
// the detection and the recovery, and returns the step to run next.
func (d *driver) fail(step int, tl *timeline.Timeline, k int, at units.Time) (int, error) {
	f := d.stops[k]
	d.handled[k] = true
	victims := d.victims(f)
	clip(tl, at)
	rec := d.record(step, tl, true)
	d.out.Iterations = append(d.out.Iterations, rec)
	d.index++
	t := d.now + at
	detect, how := t+d.s.Recovery.HeartbeatTimeout, "heartbeat timeout "+d.s.Recovery.HeartbeatTimeout.String()
	what := fmt.Sprintf("GPU %d stopped", f.GPU)
	if f.Kind == scenario.Preempt {
		// The scheduler announces a preemption: nobody waits for a heartbeat.
		detect, how, what = t, "announced by the scheduler", fmt.Sprintf("node %d preempted", f.Node)
	}
	d.out.Recovery = append(d.out.Recovery,
		timeline.Recovery{Kind: "fail", GPU: victims[0], Start: t, End: t, Detail: what},
		timeline.Recovery{Kind: "detect", GPU: victims[0], Start: t, End: detect, Detail: how})
	isVictim := make([]bool, len(d.gpuOut))
	for _, g := range victims {
		isVictim[g] = true
		d.gpuOut[g] = true
		d.ends[g] = append(d.ends[g], t)
	}
	if detect > t {
		for g := range d.gpuOut {
			if !d.gpuOut[g] && d.running(g) {
				d.addState(timeline.State{GPU: g, Node: -1, State: timeline.StateHung, Start: t, End: detect})
			}
		}
	}
	d.redoUntil = max(d.redoUntil, step)
	switch d.s.Recovery.Policy {
	case scenario.PolicyElastic:
		return d.elastic(step, victims, t, detect)
	case scenario.PolicyResiHP:
		return d.regroup(step, victims, t, detect)
	default:
		return d.restart(victims, t, detect), nil
	}
}

// running reports whether cluster GPU g belongs to a live replica of the
// current layout.
func (d *driver) running(g int) bool {
	r, _, ok := d.cur.coord(g)
	return ok && d.live[r]
}

// restart plays checkpoint-restart: every GPU stops, the job restarts
// (restart_cost) with spares for the failed GPUs, and training resumes
// from the last checkpoint, redoing the steps since.
func (d *driver) restart(victims []int, t, detect units.Time) int {
	back := detect + d.s.Recovery.RestartCost
	lost := t - d.lastCkpt
	for _, g := range victims {
		d.addState(timeline.State{GPU: g, Node: -1, State: timeline.StateFailed, Start: t, End: detect})
	}
	if back > detect {
		for g := range d.gpuOut {
			d.addState(timeline.State{GPU: g, Node: -1, State: timeline.StateRestarting, Start: detect, End: back})
		}
	}
	for _, g := range victims {
		d.gpuOut[g], d.spare[g] = false, back
	}
	d.out.Recovery = append(d.out.Recovery,
		timeline.Recovery{Kind: "restart", GPU: -1, Start: detect, End: back,
			Detail: fmt.Sprintf("restart from the checkpoint before step %d, a spare for the failed GPU", d.ckptStep)},
		timeline.Recovery{Kind: "redo", GPU: -1, Start: d.lastCkpt, End: t,
			Detail: fmt.Sprintf("%v of work lost since the last checkpoint", lost)})
	d.now, d.lastCkpt = back, back
	return d.ckptStep
}

// elastic plays elastic data parallelism: the replicas of the failed GPUs
// are dropped, and the others redo the interrupted step without them.
func (d *driver) elastic(step int, victims []int, t, detect units.Time) (int, error) {
	live := append([]bool(nil), d.live...) // iterStates keep the old slice
	before := count(live)
	for _, g := range victims {
		r, _, _ := d.cur.coord(g)
		live[r] = false
	}
	if count(live) == 0 {
		return 0, fmt.Errorf("recovery.policy: %s lost every data-parallel replica at %v", d.s.Recovery.Policy, t)
	}
	for g := range d.gpuOut {
		r, _, ok := d.cur.coord(g)
		switch {
		case !ok || !d.live[r] || live[r]:
		case d.gpuOut[g]:
			d.addState(timeline.State{GPU: g, Node: -1, State: timeline.StateFailed, Start: t, End: -1})
		default:
			d.addState(timeline.State{GPU: g, Node: -1, State: timeline.StateDropped, Start: detect, End: -1})
			d.ends[g] = append(d.ends[g], detect)
		}
	}
	d.live = live
	d.out.Recovery = append(d.out.Recovery, timeline.Recovery{Kind: "drop", GPU: victims[0], Start: detect, End: detect,
		Detail: fmt.Sprintf("replica dropped: dp %d → %d, step %d redone without it", before, count(live), step)})
	d.now = detect
	return step, nil
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// checkpoint writes a checkpoint of the state before step: every running
// GPU stalls for checkpoint_cost.
func (d *driver) checkpoint(step int) {
	end := d.now + d.s.Recovery.CheckpointCost
	if end > d.now {
		for g := range d.gpuOut {
			if !d.gpuOut[g] && d.running(g) {
				d.addState(timeline.State{GPU: g, Node: -1, State: timeline.StateCheckpoint, Start: d.now, End: end})
			}
		}
		d.out.Recovery = append(d.out.Recovery, timeline.Recovery{Kind: "checkpoint", GPU: -1, Start: d.now, End: end,
			Detail: fmt.Sprintf("checkpoint before step %d", step)})
	}
	d.now, d.lastCkpt, d.ckptStep = end, end, step
}

// addState records a fault state; End −1 means until the end of the run.
func (d *driver) addState(s timeline.State) {
	if s.End < 0 {
		d.open = append(d.open, len(d.out.States))
	}
	d.out.States = append(d.out.States, s)
}

// start makes the run's timeline from its first iteration: the hardware,
// the title, the memory's static part.
func (d *driver) start(tl *timeline.Timeline) {
	out := &timeline.Timeline{Title: tl.Title, Fidelity: tl.Fidelity, GPUs: tl.GPUs, Switches: tl.Switches, Links: tl.Links}
	tr := *tl.Training
	tr.Tokens, tr.ModelFLOPs, tr.HardwareFLOPs = 0, 0, 0
	out.Training = &tr
	for _, m := range tl.Memory {
		m.Activations, m.Peak, m.PeakInFlight = nil, 0, 0
		out.Memory = append(out.Memory, m)
	}
	d.out = out
}

// record appends iteration tl, run from d.now, to the run's timeline and
// returns its Iteration record (the detectors are filled in by the caller).
func (d *driver) record(step int, tl *timeline.Timeline, aborted bool) timeline.Iteration {
	off, out := d.now, d.out
	d.merge(tl, off)
	for _, m := range tl.Memory {
		if m.GPU >= len(out.Memory) {
			continue
		}
		om := &out.Memory[m.GPU]
		if d.resihp() {
			d.noteStatic(m, off)
		}
		for _, p := range m.Activations {
			p.At += off
			om.Activations = append(om.Activations, p)
		}
		if m.Peak > om.Peak {
			om.Peak, om.PeakInFlight = m.Peak, m.PeakInFlight
		}
	}
	rec := timeline.Iteration{Index: d.index, Step: step, Start: off, End: off + tl.End, Aborted: aborted,
		Redo: step <= d.redoUntil, Replicas: count(d.live), Imbalance: d.lastImbalance, SlowGPU: -1}
	if !aborted {
		mergeMoE(out, tl, d.s.Parallel.Plan())
		rec.Tokens = tl.Training.Tokens
		out.Training.Tokens += tl.Training.Tokens
		out.Training.ModelFLOPs += tl.Training.ModelFLOPs
		out.Training.HardwareFLOPs += tl.Training.HardwareFLOPs
	}
	return rec
}

// merge appends tl's spans, collectives and messages to the run's
// timeline, shifted to start at off; its spans belong to iteration
// d.index.
func (d *driver) merge(tl *timeline.Timeline, off units.Time) {
	out := d.out
	for _, sp := range tl.Spans {
		sp.Start, sp.End, sp.Iteration = sp.Start+off, sp.End+off, d.index
		out.Spans = append(out.Spans, sp)
	}
	base := len(out.Collectives)
	for _, c := range tl.Collectives {
		c.Start, c.End = c.Start+off, c.End+off
		out.Collectives = append(out.Collectives, c)
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		x.Start, x.End = x.Start+off, x.End+off
		if x.Collective >= 0 {
			x.Collective += base
		}
		rates := make([]timeline.Rate, len(x.Rates))
		for i, r := range x.Rates {
			rates[i] = timeline.Rate{At: r.At + off, BytesPerSecond: r.BytesPerSecond}
		}
		x.Rates = rates
		out.Transfers.Append(x)
	}
}

// clip cuts an iteration's timeline at the failure: what started after
// it never happens, what was running stops there, messages in flight are
// lost (they never arrive), and the activations are gone.
func clip(tl *timeline.Timeline, at units.Time) {
	spans := tl.Spans[:0]
	for _, sp := range tl.Spans {
		if sp.Start < at {
			sp.End = min(sp.End, at)
			spans = append(spans, sp)
		}
	}
	tl.Spans = spans
	keep := make([]int, len(tl.Collectives))
	colls := tl.Collectives[:0]
	for i, c := range tl.Collectives {
		keep[i] = -1
		if c.Start < at {
			keep[i] = len(colls)
			c.End = min(c.End, at)
			colls = append(colls, c)
		}
	}
	tl.Collectives = colls
	tl.Transfers = tl.Transfers.Kept(func(x *timeline.Transfer) bool {
		if x.End <= at && x.Collective >= 0 {
			x.Collective = keep[x.Collective]
		}
		return x.End <= at
	})
	for i := range tl.Memory {
		m := &tl.Memory[i]
		pts := m.Activations[:0]
		for _, p := range m.Activations {
			if p.At < at {
				pts = append(pts, p)
			}
		}
		m.Activations = append(pts, timeline.MemoryPoint{At: at})
	}
	tl.End = at
}

// finish closes the states that last to the end of the run, adds the
// fail-slow and degraded-link states and checks the whole run.
func (d *driver) finish() (*timeline.Timeline, error) {
	out := d.out
	out.End = d.now
	for _, i := range d.open {
		out.States[i].End = out.End
	}
	if d.cur.gen > 0 {
		d.rebaseMemory()
	}
	for _, f := range d.slow {
		if f.at >= out.End {
			continue
		}
		end := out.End
		for _, e := range d.ends[f.gpu] {
			if e > f.at {
				end = min(end, e)
			}
		}
		if s := d.spare[f.gpu]; s > f.at {
			end = min(end, s)
		}
		out.States = append(out.States, timeline.State{GPU: f.gpu, Node: -1, State: timeline.StateSlow, Factor: f.factor, Start: f.at, End: end})
	}
	for _, f := range d.s.Faults {
		if f.Kind == scenario.LinkDegrade && f.At < out.End {
			// It takes effect with the first iteration that starts after it.
			start := out.End
			for _, it := range out.Iterations {
				if it.Start >= f.At {
					start = it.Start
					break
				}
			}
			out.States = append(out.States, timeline.State{GPU: -1, Node: f.Node, State: timeline.StateDegraded, Factor: f.Factor, Start: start, End: out.End})
		}
	}
	if err := taskgraph.Check(out, "training"); err != nil {
		return nil, err
	}
	return out, nil
}

// batchWork is the tokens and the model and hardware FLOPs of the
// iteration's batch on its live replicas, at each microbatch's length.
func (tr *iteration) batchWork() (tokens, model, hardware float64) {
	if !tr.real {
		return 0, 0, 0
	}
	p := tr.s.Parallel
	r := workload.Recompute(p.Recompute)
	for rep := 0; rep < p.DP; rep++ {
		if !tr.alive(rep) {
			continue
		}
		for mb := 0; mb < p.Microbatches; mb++ {
			for _, seq := range tr.bucketsOf(rep, mb) {
				m := tr.model
				if seq > 0 {
					m.SeqLen = seq
				}
				f := workload.IterationFLOPs(m, p.MicroBatchSize, r)
				tokens += float64(p.MicroBatchSize * m.SeqLen)
				model += f.Model()
				hardware += f.Hardware()
			}
		}
	}
	return tokens, model, hardware
}

// bucketsOf is the lengths of the buckets of micro_batch_size sequences in
// microbatch mb of replica rep: its packs under a balanced assignment, its
// drawn length, or 0 for the model's own.
func (tr *iteration) bucketsOf(rep, mb int) []int {
	switch {
	case tr.it == nil || tr.it.lengths == nil:
		return []int{0}
	case tr.it.packs != nil:
		return tr.it.packs[rep][mb]
	}
	return tr.it.lengths[rep][mb : mb+1]
}

// imbalance is the slowest live replica's compute over the mean's.
func (tr *iteration) imbalance() float64 {
	var sum, worst units.Time
	n := 0
	for r, w := range tr.work {
		if tr.alive(r) {
			sum += w
			worst = max(worst, w)
			n++
		}
	}
	if sum == 0 {
		return 1
	}
	return float64(worst) * float64(n) / float64(sum)
}
