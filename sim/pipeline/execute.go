package pipeline

import (
	"fmt"

	"paraplay/sim/units"
)

// Times are the durations of one op of each kind on one model chunk.
// With v chunks per device a chunk holds 1/v of the device's layers, so to
// compare an interleaved schedule with a non-interleaved one, divide the
// per-stage times by v.
type Times struct {
	// F is a forward pass of one microbatch through one chunk.
	F units.Time
	// B is the backward for the input; when the schedule does not split
	// the backward, a B op takes B+W (the full backward).
	B units.Time
	// W is the backward for the weights.
	W units.Time
}

// Span is one op as it ran.
type Span struct {
	// Op is the op from Schedule.Order.
	Op Op
	// Stage is the model stage the op ran (from Schedule.Layout).
	Stage int
	// Start is when the op began.
	Start units.Time
	// End is when it finished.
	End units.Time
}

// Result is what the ideal executor measured.
type Result struct {
	// Spans[d] are device d's ops as they ran, in Order.
	Spans [][]Span
	// Makespan is when the last op finished (the first starts at 0).
	Makespan units.Time
	// Busy[d] is device d's total compute time.
	Busy []units.Time
	// Idle[d] is device d's idle time between its first start and its last
	// end: the bubble as the papers count it.
	Idle []units.Time
	// Bubble is the largest Idle: the per-iteration cost of the pipeline
	// bubble. It equals Makespan minus per-device compute for GPipe and
	// 1F1B; for ZB-H2, ZB-V and DualPipeV, whose devices start and end at
	// different times (a parallelogram), it is what back-to-back
	// iterations pay, as Qi et al. 2024 and DeepSeek-V3 count it.
	Bubble units.Time
	// BubbleFraction is Bubble / (Bubble + Busy) on the device with the
	// largest Idle; (p−1)/(m+p−1) for GPipe and 1F1B.
	BubbleFraction float64
	// PeakChunks[d] is the largest number of (microbatch, chunk)
	// activations device d holds: forward run, backward B not yet run.
	// A deferred W does not count: it holds only the weight-gradient
	// inputs, which Qi et al. 2024 account for separately and smaller.
	PeakChunks []int
	// PeakInFlight[d] is PeakChunks[d]/v in stage-equivalents (a chunk
	// holds 1/v of a stage's layers), comparable across v.
	PeakInFlight []float64
	// PeakHeldW[d] is, in a split-backward schedule, the largest number
	// of (microbatch, chunk) pairs device d has run the B of and not yet
	// the W: each keeps the weight gradient's inputs (the linear layers'
	// inputs and output gradients) until its W. m for 2BP, whose W's all
	// wait for the end; nil when the backward is not split.
	PeakHeldW []int
	// PerMicrobatch is, for an Async schedule, the steady-state time
	// between microbatches: the gap between successive backward
	// completions on device 0 (the last stage to finish each microbatch),
	// averaged over the run. Zero for flushed schedules.
	PerMicrobatch units.Time
}

// Execute runs s on ideal devices with no communication: each device runs
// its Order one op at a time, and an op starts as soon as its device is free
// and its dependencies have finished. s must pass Validate; Execute panics
// otherwise, as a schedule that deadlocks has no result.
func Execute(s Schedule, t Times) Result {
	if err := s.Validate(); err != nil {
		panic("pipeline.Execute: " + err.Error())
	}
	r, err := run(s, t)
	if err != nil {
		panic("pipeline.Execute: " + err.Error())
	}
	return r
}

// run executes s and reports a deadlock (an op whose dependencies never
// finish) as an error. It assumes the structural checks of Validate passed.
func run(s Schedule, t Times) (Result, error) {
	p, m := s.Stages, s.Microbatches
	ms := s.ModelStages()
	stage := s.stageOf()
	done := make([]units.Time, int(numKinds)*ms*m)
	for i := range done {
		done[i] = -1
	}
	key := func(k Kind, st, mb int) int { return (int(k)*ms+st)*m + mb }
	dur := [numKinds]units.Time{F: t.F, B: t.B, W: t.W}
	if !s.SplitBackward {
		dur[B] = t.B + t.W
	}
	r := Result{Spans: make([][]Span, p)}
	next := make([]int, p)
	free := make([]units.Time, p)
	left := 0
	for d := range s.Order {
		left += len(s.Order[d])
		r.Spans[d] = make([]Span, 0, len(s.Order[d]))
	}
	for left > 0 {
		progress := false
		for d := 0; d < p; d++ {
			for next[d] < len(s.Order[d]) {
				op := s.Order[d][next[d]]
				st := stage[d][op.Chunk]
				ready, ok := depsDone(op.Kind, st, op.Microbatch, ms, s.LocalLoss, done, key)
				if !ok {
					break
				}
				start := max(free[d], ready)
				end := start + dur[op.Kind]
				done[key(op.Kind, st, op.Microbatch)] = end
				r.Spans[d] = append(r.Spans[d], Span{Op: op, Stage: st, Start: start, End: end})
				free[d] = end
				next[d]++
				left--
				progress = true
			}
		}
		if !progress {
			return Result{}, deadlock(s, next)
		}
	}
	r.measure(s)
	return r, nil
}

// depsDone returns when the dependencies of op (kind, stage, microbatch)
// finished, and false if one has not run yet: F needs the previous stage's
// F; B needs its own F and, unless each stage has a local loss, the next
// stage's B; W needs its own B.
func depsDone(k Kind, st, mb, ms int, local bool, done []units.Time, key func(Kind, int, int) int) (units.Time, bool) {
	var deps [2]int
	n := 0
	switch k {
	case F:
		if st > 0 {
			deps[n], n = key(F, st-1, mb), n+1
		}
	case B:
		deps[n], n = key(F, st, mb), n+1
		if st < ms-1 && !local {
			deps[n], n = key(B, st+1, mb), n+1
		}
	case W:
		deps[n], n = key(B, st, mb), n+1
	}
	var ready units.Time
	for _, i := range deps[:n] {
		if done[i] < 0 {
			return 0, false
		}
		ready = max(ready, done[i])
	}
	return ready, true
}

// deadlock names the op each stuck device waits at.
func deadlock(s Schedule, next []int) error {
	msg := ""
	for d, i := range next {
		if i < len(s.Order[d]) {
			op := s.Order[d][i]
			msg += fmt.Sprintf(" device %d at %s (op %d);", d, op.label(s.Chunks), i)
		}
	}
	return fmt.Errorf("pipeline: %s: Order deadlocks:%s each waits for an op that never runs before it", s.Name, msg[:len(msg)-1])
}

// measure fills in the figures derived from the spans.
func (r *Result) measure(s Schedule) {
	p := s.Stages
	r.Busy = make([]units.Time, p)
	r.Idle = make([]units.Time, p)
	worst := 0
	for d, spans := range r.Spans {
		for _, sp := range spans {
			r.Busy[d] += sp.End - sp.Start
			r.Makespan = max(r.Makespan, sp.End)
		}
		if len(spans) > 0 {
			r.Idle[d] = spans[len(spans)-1].End - spans[0].Start - r.Busy[d]
		}
		if r.Idle[d] > r.Idle[worst] {
			worst = d
		}
	}
	r.Bubble = r.Idle[worst]
	if total := r.Bubble + r.Busy[worst]; total > 0 {
		r.BubbleFraction = float64(r.Bubble) / float64(total)
	}
	r.PeakChunks, r.PeakInFlight = peaks(s)
	if s.SplitBackward {
		r.PeakHeldW = heldW(s)
	}
	if s.Async {
		r.PerMicrobatch = perMicrobatch(r.Spans[0])
	}
}

// peaks counts, per device, the activations held: a forward adds one for its
// (microbatch, chunk), the B of the same pair releases it. The count depends
// only on Order, not on times.
func peaks(s Schedule) ([]int, []float64) {
	chunks := make([]int, s.Stages)
	stage := make([]float64, s.Stages)
	for d, ops := range s.Order {
		held := 0
		for _, op := range ops {
			switch op.Kind {
			case F:
				held++
			case B:
				held--
			}
			chunks[d] = max(chunks[d], held)
		}
		stage[d] = float64(chunks[d]) / float64(s.Chunks)
	}
	return chunks, stage
}

// heldW counts, per device, the B's whose W has not run yet; like peaks,
// it depends only on Order.
func heldW(s Schedule) []int {
	out := make([]int, s.Stages)
	for d, ops := range s.Order {
		held := 0
		for _, op := range ops {
			switch op.Kind {
			case B:
				held++
			case W:
				held--
			}
			out[d] = max(out[d], held)
		}
	}
	return out
}

// perMicrobatch averages the gaps between successive B completions.
func perMicrobatch(spans []Span) units.Time {
	first, last, n := units.Time(-1), units.Time(0), 0
	for _, sp := range spans {
		if sp.Op.Kind != B {
			continue
		}
		if first < 0 {
			first = sp.End
		}
		last = sp.End
		n++
	}
	if n < 2 {
		return 0
	}
	return (last - first) / units.Time(n-1)
}
