package swarm

import (
	"fmt"
	"slices"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// rates is each stage's summed peer speed R_s: its live peers, a moving
// peer counted at the stage it goes to.
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
		r[s] += p.speed
	}
	return r
}

// rate is the closed form X = min_s R_s / (F + B), microbatches a second.
func (x *sim) rate() float64 {
	return slices.Min(x.rates()) / (x.s.Compute.Forward + x.s.Compute.Backward).Seconds()
}

// rebalance moves at most one peer, from the fastest stage a to the
// slowest b, if a keeps more than b had (R_a − v > R_b): of those peers,
// the one that leaves min(R_a − v, R_b + v) highest, the lowest first.
// Each move raises the sorted stage rates, so moves stop.
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
		if !p.alive || p.leaving || p.moving || p.stage != a || r[a]-p.speed <= r[b] {
			continue
		}
		if m := min(r[a]-p.speed, r[b]+p.speed); best < 0 || m > bestMin {
			best, bestMin = j, m
		}
	}
	if best >= 0 {
		p := &x.peers[best]
		p.leaving, p.target = true, b
		x.rec.Moves++
		x.drained(best)
	}
	if len(x.done) < x.y.Microbatches && (best >= 0 || x.q.Len() > 0) {
		x.q.Push(x.now+x.y.Rebalance, event{kind: evRebalance})
	}
}

// drained starts peer j's move once it leaves and owes nothing: it
// downloads its new stage's parameters, α + stage_bytes/β.
func (x *sim) drained(j int) {
	p := &x.peers[j]
	if !p.leaving || p.busy || len(p.queue) > 0 || p.holds > 0 {
		return
	}
	p.leaving, p.moving = false, true
	end := x.now + x.s.Link.Latency + x.s.Link.Bandwidth.TransferTime(x.y.StageBytes)
	x.tl.States = append(x.tl.States, timeline.State{GPU: j, Node: -1, State: timeline.StateReplan,
		Group: fmt.Sprint("stage ", p.target), Start: x.now, End: end})
	x.moveEnd = max(x.moveEnd, end)
	x.q.Push(end, event{kind: evMoved, peer: j})
}

// moved puts peer j on its new stage and hands it the stage's inbox.
func (x *sim) moved(j int) {
	p := &x.peers[j]
	if !p.alive {
		return
	}
	p.moving, p.stage, p.until = false, p.target, x.now
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

// fault applies one event of the faults section at its time.
func (x *sim) fault(f scenario.Fault) {
	p := &x.peers[f.GPU]
	if !p.alive {
		return
	}
	if f.Kind == scenario.FailSlow {
		p.speed *= f.Factor
		x.tl.States = append(x.tl.States, timeline.State{GPU: f.GPU, Node: -1, State: timeline.StateSlow, Factor: f.Factor, Start: x.now, End: -1})
		return
	}
	p.alive = false
	x.tl.States = append(x.tl.States, timeline.State{GPU: f.GPU, Node: -1, State: timeline.StateFailed, Start: x.now, End: -1})
	x.lose(f.GPU)
	p.busy = false
}

// lose sends again, from the first stage, every unfinished microbatch
// that peer j held activations of or was to compute: its trainer's
// request failed. The other peers drop what they held of it.
func (x *sim) lose(j int) {
	p := &x.peers[j]
	hit := make([]bool, x.y.Microbatches)
	for _, t := range p.queue {
		hit[t.mb] = true
	}
	p.queue = nil
	if p.busy && p.run.gen == x.gen[p.run.mb] {
		hit[p.run.mb] = true
	}
	for mb, hs := range x.holder {
		if slices.Contains(hs, j) {
			hit[mb] = true
		}
	}
	var again []int
	for mb, h := range hit {
		if !h || mb >= x.sent {
			continue
		}
		for s, q := range x.holder[mb] {
			if q >= 0 {
				x.peers[q].holds--
				x.holder[mb][s] = -1
				defer x.drained(q)
			}
		}
		x.gen[mb]++
		again = append(again, mb)
	}
	x.rec.Lost += len(again)
	for _, mb := range again {
		x.route(task{mb: mb, gen: x.gen[mb]}, 0)
	}
}
