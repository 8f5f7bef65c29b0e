package training

import (
	"math"

	"paraplay/sim/pipeline"
	"paraplay/sim/units"
)

// readyFirst is the run-time dispatcher of parallel.schedule: ready-first
// (Liu et al. 2026, RRFP): each device's ops wait on a hold instead of on
// the op before them in Order, and the dispatcher releases them.
//
// The static order stays the plan: when a device is free it runs the op
// 1F1B would run next (its best-ranked op not yet run) as soon as that
// op's inputs are ready. While they are not, it may run a later-ranked op
// whose inputs are ready, but only one that its estimate says ends before
// the inputs of the statically-next op can arrive (the earliest arrival,
// from the estimated ends of the ops and sends still making them). With
// exact estimates such an op never delays the statically-next op, so by
// induction over the static order every op ends no later than under 1F1B
// and the iteration is never slower; without variability it makes 1F1B's
// choices. An unguarded greedy dispatcher has no such bound (Graham 1969's
// list-scheduling anomalies: a forward started in a gap delays a backward
// arriving during it). The estimates are what a runtime knows before an
// op runs: its nominal time for its sequence lengths, the GPU type's speed
// and a fail-slow GPU's clock as it is now; never the straggler draw,
// which is known only when the op ends. A forward starts only while the
// device holds fewer than p microbatches (1F1B's peak, on its first
// stage), so at most p microbatches are in flight anywhere; the last stage
// can always run its backward, so the dispatcher never deadlocks.
type readyFirst struct {
	devs []rfDevice
	// pokes[id] are the devices to look at again when op id finishes: the
	// device an op's last piece frees, the devices an op's inputs feed.
	pokes map[int][]int32
	// fin[id] is when graph op id finished (−1: not yet).
	fin []units.Time
	// opOf maps a pipeline op's last piece to its device and rank.
	opOf map[int]rfRef
	// lo and hi bound a straggler factor: exp(μ ∓ zσ) of the lognormal.
	lo, hi float64
}

// rfDevice is one pipeline device of one replica as the dispatcher sees it.
type rfDevice struct {
	ops     []rfOp // in rank order; ops[:from] have all been released
	from    int
	running int        // the last piece of the op it runs (−1: free)
	eta     units.Time // the estimated end of the op it runs
	held    int        // microbatches whose F ran and B did not
	bound   int        // the most it may hold: p, the static order's peak on device 0
	// slack is bound less the static order's own peak on this device: how
	// many forwards it may run ahead of that order, so that the forward
	// the order names next is never held back by the bound.
	slack int
}

// ahead is how many forwards the device has run ahead of the static order
// (released, but ranked after its statically-next op). A backward run
// ahead does not make room: once the static order reaches it, it no
// longer offsets the forwards still ahead.
func (d *rfDevice) ahead() int {
	n := 0
	for _, op := range d.ops[d.from:] {
		if op.released && op.kind == pipeline.F {
			n++
		}
	}
	return n
}

// rfOp is one pipeline op: its pieces first..last (consecutive ids).
type rfOp struct {
	first, last int
	kind        pipeline.Kind
	released    bool
	start, eta  units.Time // once released: when, and its estimated end
	preds       []int      // what its first piece waits for
}

// rfRef is where the dispatcher keeps a pipeline op.
type rfRef struct{ dev, rank int32 }

// readyFirstOps sets the dispatcher up once every op and dependency is in
// the graph: it holds each op's first piece and hears of every op that
// finishes. A join with no dependencies starts the dispatch at time 0.
func (tr *iteration) readyFirstOps() {
	bound := min(tr.sch.Stages, tr.sch.Microbatches) // 1F1B's peak, on device 0
	rf := &readyFirst{pokes: map[int][]int32{}, opOf: map[int]rfRef{}}
	poke := func(id, dev int) {
		if l := rf.pokes[id]; len(l) == 0 || l[len(l)-1] != int32(dev) {
			rf.pokes[id] = append(l, int32(dev))
		}
	}
	start := tr.g.AddJoin()
	for r := range tr.ids {
		if !tr.simulated(r) {
			continue
		}
		for d, order := range tr.sch.Order {
			dev := len(rf.devs)
			rf.devs = append(rf.devs, rfDevice{running: -1, bound: bound, slack: bound - min(tr.sch.Stages-d, tr.sch.Microbatches)})
			poke(start, dev)
			for _, o := range order {
				k := tr.stageOfDev[d][o.Chunk]
				op := rfOp{first: tr.firsts[r][k][o.Kind][o.Microbatch], last: tr.ids[r][k][o.Kind][o.Microbatch], kind: o.Kind}
				op.preds = tr.g.Predecessors(op.first)
				rf.opOf[op.last] = rfRef{int32(dev), int32(len(rf.devs[dev].ops))}
				rf.devs[dev].ops = append(rf.devs[dev].ops, op)
				tr.g.Hold(op.first)
				for _, pre := range op.preds {
					poke(pre, dev)
				}
				poke(op.last, dev)
			}
		}
	}
	rf.lo, rf.hi = 1, 1
	if j := tr.jitter; j.sigma > 0 {
		rf.lo, rf.hi = math.Exp(j.mu-rfZ*j.sigma), math.Exp(j.mu+rfZ*j.sigma)
	}
	rf.fin = make([]units.Time, tr.g.Len())
	for i := range rf.fin {
		rf.fin[i] = -1
	}
	tr.g.AfterFinish(func(id int) {
		rf.fin[id] = tr.g.Now()
		for _, dev := range rf.pokes[id] {
			rf.dispatch(tr, int(dev), id)
		}
	})
}

// dispatch runs an op on device dev if the device is free: its
// statically-next op if that is ready, else the best-ranked ready op that
// ends, by its estimate, before the statically-next op's inputs can
// arrive. finished is the op whose end prompted the look.
func (rf *readyFirst) dispatch(tr *iteration, dev, finished int) {
	d := &rf.devs[dev]
	if d.running == finished {
		d.running = -1
	}
	if d.running >= 0 {
		return
	}
	for d.from < len(d.ops) && d.ops[d.from].released {
		d.from++
	}
	now, deadline := tr.g.Now(), units.Time(-1)
	for i := d.from; i < len(d.ops); i++ {
		op := &d.ops[i]
		if op.released || op.kind == pipeline.F && d.held >= d.bound {
			continue
		}
		if tr.g.Waiting(op.first) != 1 { // more than the hold: inputs not ready
			continue
		}
		est := rf.estimate(tr, op, 1)
		if i > d.from { // ahead of the static order: only into a gap it fits
			if op.kind == pipeline.F && d.ahead() >= d.slack {
				continue
			}
			if deadline < 0 {
				deadline = rf.deadline(tr, d)
			}
			if now+rf.estimate(tr, op, rf.hi) > deadline {
				continue
			}
		}
		op.released, op.start, op.eta = true, now, now+est
		d.running, d.eta = op.last, op.eta
		switch op.kind {
		case pipeline.F:
			d.held++
		case pipeline.B:
			d.held--
		}
		tr.g.Release(op.first)
		return
	}
}

// deadline is the earliest the device's statically-next op can start: when
// its last input can arrive, by the estimates; a forward the in-flight
// bound holds back waits for a backward instead, so any op may run first.
func (rf *readyFirst) deadline(tr *iteration, d *rfDevice) units.Time {
	s := &d.ops[d.from]
	if s.kind == pipeline.F && d.held >= d.bound {
		return 1<<62 - 1
	}
	var t units.Time
	for _, p := range s.preds {
		t = max(t, rf.earliest(tr, p, rfDepth))
	}
	return t
}

// rfDepth is how many ops back earliest looks (op, send, op, send, …);
// beyond it an unfinished op ends no earlier than now.
const rfDepth = 6

// rfZ is how many standard deviations of the straggler lognormal (in log
// space) the dispatcher allows for when op times jitter: an op run ahead
// must fit even at its 99.87th-percentile time (exp(μ+3σ)) while the ops
// feeding the statically-next one run at their 0.13th (exp(μ−3σ)). The
// runtime knows the spread of op times (a profile, here straggler.cv),
// never the draw.
const rfZ = 3

// earliest is the estimated earliest end of graph op id: a pipeline op
// that runs ends at its estimate (or later, if it is still running); one
// not yet run starts once its device and inputs are free; a send ends its
// nominal time after its inputs (a network message: at once, 0 being a
// lower bound on its time).
func (rf *readyFirst) earliest(tr *iteration, id, depth int) units.Time {
	if f := rf.fin[id]; f >= 0 {
		return f
	}
	now := tr.g.Now()
	if depth == 0 {
		return now
	}
	if ref, ok := rf.opOf[id]; ok {
		d := &rf.devs[ref.dev]
		op := &d.ops[ref.rank]
		if op.released {
			return rf.soonest(now, op)
		}
		t := now
		if d.running >= 0 {
			t = max(t, rf.soonest(now, &d.ops[rf.opOf[d.running].rank]))
		}
		for _, p := range op.preds {
			t = max(t, rf.earliest(tr, p, depth-1))
		}
		return t + rf.estimate(tr, op, rf.lo)
	}
	var t units.Time
	for _, p := range tr.g.Predecessors(id) {
		t = max(t, rf.earliest(tr, p, depth-1))
	}
	_, d := tr.g.Nominal(id)
	return t + d
}

// soonest is the earliest a running op can end: its start plus its
// estimate at the fastest straggler factor, and not before now.
func (rf *readyFirst) soonest(now units.Time, op *rfOp) units.Time {
	return max(now, op.start+units.Time(float64(op.eta-op.start)*rf.lo))
}

// estimate is op's time as the runtime knows it before the op runs: each
// piece's nominal compute (for its sequence lengths) × its slowest GPU's
// type multiplier ÷ the speed a fail-slow leaves that GPU now, plus its
// blocking communication; no straggler draw.
func (rf *readyFirst) estimate(tr *iteration, op *rfOp, jit float64) units.Time {
	var t units.Time
	for id := op.first; id <= op.last; id++ {
		gr, d := tr.g.Nominal(id)
		if gr == nil {
			t += d
			continue
		}
		f := 0.0
		for _, g := range gr.GPUs {
			s := tr.mult[g]
			if it := tr.it; it != nil && !it.healthy {
				s /= it.speed(g, it.offset+tr.g.Now())
			}
			f = max(f, s*jit)
		}
		t += d - gr.Compute + units.Time(float64(gr.Compute)*f+0.5)
	}
	return t
}
