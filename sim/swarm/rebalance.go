package swarm

import (
	"strconv"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// rates is each stage's summed peer speed R_s over the share f_s of
// microbatches that visit it: its live peers, a moving peer counted at
// the stage it goes to. Every microbatch visits stage 0, and with
// swarm.skip = k a share f = 1 − k/(S−1) visits each other stage (paths
// spread evenly), so R_s/f is what stage s can serve.
func (x *sim) rates() []float64 {
	r := make([]float64, x.y.Stages)
	for _, p := range x.peers {
		if !p.alive {
			continue
		}
		s := p.stage
		if p.leaving || p.moving {
			s = p.target
		}
		r[s] += p.speed * x.weight(s)
	}
	return r
}

// weight is 1/f_s: what a unit of speed on stage s serves.
func (x *sim) weight(s int) float64 {
	if s == 0 {
		return 1
	}
	return float64(x.y.Stages-1) / float64(x.y.Stages-1-x.y.Skip)
}

// rebalance moves at most one peer, from the fastest stage a to the
// slowest b, if a keeps more than b had (R_a − v·w_a > R_b, rates and
// weights w as in rates): of those peers, the one that leaves the pair's
// minimum highest, the lowest first. Each move raises the sorted stage
// rates, so moves stop.
func (x *sim) rebalance() {
	r := x.rates()
	a, b := 0, 0
	for s := range r {
		if r[s] > r[a] {
			a = s
		}
		if r[s] < r[b] {
			b = s
		}
	}
	best, bestMin := -1, 0.0
	for j, p := range x.peers {
		left := r[a] - p.speed*x.weight(a)
		if !p.alive || p.leaving || p.moving || p.stage != a || left <= r[b] {
			continue
		}
		if m := min(left, r[b]+p.speed*x.weight(b)); best < 0 || m > bestMin {
			best, bestMin = j, m
		}
	}
	x.armed = false
	if best >= 0 {
		p := &x.peers[best]
		p.leaving, p.target = true, b
		x.rec.Moves++
		x.drained(best)
		x.arm(1)
	}
}

// arm schedules the next rebalance at the first multiple of
// swarm.rebalance from now (after now, with after = 1). Stage rates
// change only when a peer moves or fails, so a check that moved no peer
// waits for the next failure: the checks in between would find the same
// rates and move no one.
func (x *sim) arm(after units.Time) {
	if r := x.y.Rebalance; r > 0 && !x.armed && len(x.done) < x.y.Microbatches {
		x.armed = true
		x.e.At((x.e.Now()+after+r-1)/r*r, x.rebalance)
	}
}

// drained starts peer j's move once it leaves and owes nothing: it
// downloads its new stage's parameters, α + stage_bytes/β.
func (x *sim) drained(j int) {
	p := &x.peers[j]
	if !p.alive || !p.leaving || p.busy || len(p.queue) > 0 || p.holds > 0 {
		return
	}
	p.leaving, p.moving = false, true
	end := x.e.Now() + x.s.Link.Latency + x.s.Link.Bandwidth.TransferTime(x.y.StageBytes)
	x.state(j, timeline.StateReplan, end).Group = "stage " + strconv.Itoa(p.target)
	x.moveEnd = max(x.moveEnd, end)
	x.e.At(end, func() { x.moved(j) })
}

// moved puts peer j on its new stage and hands it the stage's inbox.
func (x *sim) moved(j int) {
	p := &x.peers[j]
	if !p.alive {
		return
	}
	p.moving, p.stage, p.until = false, p.target, x.e.Now()
	x.flush(p.stage)
}

// flush routes the forwards waiting in stage s's inbox.
func (x *sim) flush(s int) {
	waiting := x.inbox[s]
	x.inbox[s] = nil
	for _, t := range waiting {
		if t.gen == x.gen[t.mb] {
			x.route(t, 0)
		}
	}
}

// fault stops a peer (a fail_stop of the faults section) at its time; a
// fault after the last microbatch finished is past the run and changes
// nothing (recorded, its state would lie outside the run).
func (x *sim) fault(f scenario.Fault) {
	p := &x.peers[f.GPU]
	if !p.alive || len(x.done) >= x.y.Microbatches {
		return
	}
	p.alive = false
	x.state(f.GPU, timeline.StateFailed, -1)
	x.arm(0)
	x.lose(f.GPU)
	p.busy = false
}

// state starts peer j's state st now, until end (−1: the run's end).
func (x *sim) state(j int, st string, end units.Time) *timeline.State {
	x.tl.States = append(x.tl.States, timeline.State{GPU: j, Node: -1, State: st, Start: x.e.Now(), End: end})
	return &x.tl.States[len(x.tl.States)-1]
}

// lose sends again, from the first stage, every unfinished microbatch
// that peer j held activations of or was to compute: its trainer's
// request failed. The other peers drop what they held of it.
func (x *sim) lose(j int) {
	p := &x.peers[j]
	hit := make([]bool, x.y.Microbatches)
	for _, t := range append(p.queue, p.run) {
		hit[t.mb] = hit[t.mb] || t.gen == x.gen[t.mb] && (t != p.run || p.busy)
	}
	p.queue = nil
	for i, h := range x.holder {
		if h == j {
			hit[i/x.y.Stages] = true
		}
	}
	for i, h := range x.holder {
		if h >= 0 && hit[i/x.y.Stages] {
			x.peers[h].holds--
			x.holder[i] = -1
		}
	}
	for mb, h := range hit {
		if h {
			x.gen[mb]++
			x.rec.Lost++
			x.start(mb)
		}
	}
	for q := range x.peers {
		x.drained(q) // a leaving peer that held only lost microbatches moves now
	}
}
