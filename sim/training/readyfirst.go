package training

import (
	"paraplay/sim/pipeline"
)

// readyFirst is the run-time dispatcher of parallel.schedule: ready-first
// (Liu et al. 2026, RRFP): each device's ops wait on a hold instead of on
// the op before them in Order, and whenever a device is free it releases
// its best-ranked op (the earliest in Order) whose inputs are ready, that
// is, whose only wait left is the hold. A forward starts only while the
// device holds fewer than p microbatches (1F1B's peak, on its first
// stage), so at most p microbatches are in flight anywhere; a later stage
// may hold more than 1F1B's p−d. The last stage can always run its
// backward, so the dispatcher never deadlocks. With no variability it
// makes the choices 1F1B makes (tests hold the spans identical); a greedy
// dispatcher is not always faster (Graham 1969's list-scheduling
// anomalies: a forward started in a gap may delay a backward arriving
// during it), which the tests measure.
type readyFirst struct {
	devs []rfDevice
	// pokes[id] are the devices to look at again when op id finishes: the
	// device an op's last piece frees, the devices an op's inputs feed.
	pokes map[int][]int32
}

// rfDevice is one pipeline device of one replica as the dispatcher sees it.
type rfDevice struct {
	ops     []rfOp // in rank order; ops[:from] have all been released
	from    int
	running int // the last piece of the op it runs (−1: free)
	held    int // microbatches whose F ran and B did not
	bound   int // the most it may hold: p, the static order's peak on device 0
}

// rfOp is one op waiting to be dispatched.
type rfOp struct {
	first, last int
	kind        pipeline.Kind
}

// readyFirstOps sets the dispatcher up once every op and dependency is in
// the graph: it holds each op's first piece and hears of every op that
// finishes. A join with no dependencies starts the dispatch at time 0.
func (tr *iteration) readyFirstOps() {
	bound := min(tr.sch.Stages, tr.sch.Microbatches) // 1F1B's peak, on device 0
	rf := &readyFirst{pokes: map[int][]int32{}}
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
			rf.devs = append(rf.devs, rfDevice{running: -1, bound: bound})
			poke(start, dev)
			for _, o := range order {
				k := tr.stageOfDev[d][o.Chunk]
				op := rfOp{first: tr.firsts[r][k][o.Kind][o.Microbatch], last: tr.ids[r][k][o.Kind][o.Microbatch], kind: o.Kind}
				rf.devs[dev].ops = append(rf.devs[dev].ops, op)
				tr.g.Hold(op.first)
				for _, pre := range tr.g.Predecessors(op.first) {
					poke(pre, dev)
				}
				poke(op.last, dev)
			}
		}
	}
	tr.g.AfterFinish(func(id int) {
		for _, dev := range rf.pokes[id] {
			rf.dispatch(tr, int(dev), id)
		}
	})
}

// dispatch runs device dev's best-ranked ready op if the device is free;
// finished is the op whose end prompted the look.
func (rf *readyFirst) dispatch(tr *iteration, dev, finished int) {
	d := &rf.devs[dev]
	if d.running == finished {
		d.running = -1
	}
	if d.running >= 0 {
		return
	}
	for d.from < len(d.ops) && d.ops[d.from].first < 0 {
		d.from++
	}
	for i := d.from; i < len(d.ops); i++ {
		op := d.ops[i]
		if op.first < 0 || op.kind == pipeline.F && d.held >= d.bound {
			continue
		}
		if tr.g.Waiting(op.first) != 1 { // more than the hold: inputs not ready
			continue
		}
		d.ops[i].first = -1 // released
		d.running = op.last
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
