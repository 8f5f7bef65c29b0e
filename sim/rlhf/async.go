package rlhf

import (
	"sort"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// disaggregated plays the generation pool and the training pool as two
// servers joined by the rollout queue (a tandem queue with blocking).
// Batch k is generated once all of these hold:
//
//	the generator has finished batch k−1;
//	the queue has room: with capacity Q, training has taken batch k−Q;
//	the staleness bound: with η bounded, the generator holds a policy
//	version v ≥ k − η (AReaL-Hex's bound on how far rollouts may lag);
//
// and it is generated with the newest version that has arrived. Training
// step k starts when the trainer is free and batch k is in the queue; it
// scores, trains, and after every SyncEvery-th step sends the weights
// (a span on the training pool, which may not change the weights while
// they leave). Version k+1 reaches the generator when that send ends; the
// generator loads it between batches, its receive taken to overlap its
// decoding (no span on the generation pool).
//
// Each batch's constraints only name earlier steps, so one pass in step
// order plays the run exactly.
func (r *player) disaggregated() {
	c, ph := r.c, r.ph
	gen, train := r.p.first, r.p.second
	type arrival struct {
		version int
		at      units.Time
	}
	versions := []arrival{{0, 0}}
	trainStart := make([]units.Time, c.Steps)
	var genFree, trainFree units.Time
	for k := range c.Steps {
		start := genFree
		if q := c.Queue; q > 0 && k >= q {
			start = max(start, trainStart[k-q])
		}
		if c.Staleness != Unbounded && k-c.Staleness > 0 {
			need := k - c.Staleness
			for _, a := range versions {
				if a.version >= need {
					start = max(start, a.at)
					break
				}
			}
		}
		version := 0
		for _, a := range versions {
			if a.at <= start {
				version = max(version, a.version)
			}
		}
		genEnd := r.span(gen, timeline.Generate, "actor generate", k, start, ph.Generate)
		genFree = genEnd
		ts := max(trainFree, genEnd)
		trainStart[k] = ts
		t := r.chain(train, k, ts, r.scoring(1)...)
		t = r.chain(train, k, t, r.training(1)...)
		r.tl.RLHF.Steps = append(r.tl.RLHF.Steps, timeline.RLStep{Index: k, GenStart: start, GenEnd: genEnd, TrainStart: ts, TrainEnd: t, Version: version})
		if (k+1)%c.SyncEvery == 0 {
			done := r.span(train, timeline.WeightSync, "weights → generator", k, t, ph.Sync)
			versions = append(versions, arrival{k + 1, done})
			t = done
		}
		trainFree = t
	}
	r.tl.RLHF.Queue = queueDepth(r.tl.RLHF.Steps)
}

// queueDepth is the rollout queue's depth over time: a batch enters when
// its generation ends and leaves when its training starts.
func queueDepth(steps []timeline.RLStep) []timeline.QueuePoint {
	type event struct {
		at    units.Time
		delta int
	}
	ev := make([]event, 0, 2*len(steps))
	for _, s := range steps {
		ev = append(ev, event{s.GenEnd, +1}, event{s.TrainStart, -1})
	}
	sort.SliceStable(ev, func(i, j int) bool { return ev[i].at < ev[j].at })
	out := []timeline.QueuePoint{{At: 0, Depth: 0}}
	depth := 0
	for i, e := range ev {
		depth += e.delta
		if i+1 < len(ev) && ev[i+1].at == e.at {
			continue // one point per instant, after all its events
		}
		if last := &out[len(out)-1]; last.At == e.at {
			last.Depth = depth
		} else if last.Depth != depth {
			out = append(out, timeline.QueuePoint{At: e.at, Depth: depth})
		}
	}
	return out
}
