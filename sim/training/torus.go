package training

import (
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// On a TPU slice a training run's groups are boxes of its torus: a
// parallel.mesh lays model, seq, fsdp and data out innermost first over
// chip ids that run x fastest, so each axis of the mesh is one or more
// axes of the torus (or a block of one). A group that is such a box runs
// its collectives as the torus collectives over the box's axes
// (collective.TorusSchedule and its closed form collective.TorusTime: a
// bidirectional ring per axis, every axis at once), the way XLA runs a
// collective over mesh axes, not as one ring over chip ids.

// The hooks this file sets (dataparallel.go calls through them).
func init() {
	onTorus = (*iteration).torusCollective
	torusTimeOf = (*iteration).torusTime
}

// torusBox is the torus grid the chips gpus fill and, per rank of the
// grid (x fastest), the index in gpus of its chip: gpus must be every
// chip of a box of one slice, a run of consecutive positions along each
// axis. A box axis is a ring where it is the whole axis of a slice that
// wraps (not twisted onto another ring, topo.Torus.RingWraps), a line
// otherwise. ok is false off a torus or for any other set of chips.
func torusBox(t *topo.Torus, gpus []int) (g collective.Grid, order []int, ok bool) {
	if t == nil || len(gpus) < 2 {
		return g, nil, false
	}
	slice0, _ := t.Coord(gpus[0])
	var lo, hi [3]int
	for i, id := range gpus {
		s, c := t.Coord(id)
		if s != slice0 {
			return g, nil, false
		}
		for a := range c {
			if i == 0 || c[a] < lo[a] {
				lo[a] = c[a]
			}
			if i == 0 || c[a] > hi[a] {
				hi[a] = c[a]
			}
		}
	}
	n := 1
	for a := range g.Dims {
		g.Dims[a] = hi[a] - lo[a] + 1
		n *= g.Dims[a]
		g.Wrap[a] = g.Dims[a] == t.Dims[a] && g.Dims[a] >= 3 && t.RingWraps(a)
	}
	if n != len(gpus) {
		return g, nil, false // not a box (or a box with holes)
	}
	order = make([]int, n)
	for i := range order {
		order[i] = -1
	}
	for i, id := range gpus {
		_, c := t.Coord(id)
		r := c[0] - lo[0] + g.Dims[0]*(c[1]-lo[1]+g.Dims[1]*(c[2]-lo[2]))
		if order[r] >= 0 {
			return g, nil, false // a chip named twice
		}
		order[r] = i
	}
	return g, order, true
}

// slicesBox is torusBox for a group that spans every slice of a
// multi-slice run: the same box in each slice (a data axis over the
// data-centre network), its grid, the slices, and per rank s·C + c (chip c
// of the box in slice s, C the box's chips) the index in gpus. ok is false
// for a group within one slice or any other set.
func slicesBox(t *topo.Torus, gpus []int) (g collective.Grid, order []int, m int, ok bool) {
	if t == nil || t.Slices < 2 || len(gpus)%t.Slices != 0 {
		return g, nil, 0, false
	}
	m = t.Slices
	per := len(gpus) / m
	bySlice := make([][]int, m) // the group's chips of each slice, and their indices in gpus
	idx := make([][]int, m)
	for i, id := range gpus {
		s, _ := t.Coord(id)
		bySlice[s] = append(bySlice[s], id)
		idx[s] = append(idx[s], i)
	}
	for s := range bySlice {
		if len(bySlice[s]) != per {
			return g, nil, 0, false
		}
		gs, os, ok := torusBox(t, bySlice[s])
		if !ok || (s > 0 && (gs != g || t.ID(0, coordOf(t, bySlice[s][os[0]])) != gpus[order[0]])) {
			return g, nil, 0, false // no box, or not the same box as slice 0's
		}
		if s == 0 {
			g = gs
		}
		for _, o := range os {
			order = append(order, idx[s][o])
		}
	}
	return g, order, m, g.Validate() == nil
}

// coordOf is chip id's position within its slice.
func coordOf(t *topo.Torus, id int) [3]int {
	_, c := t.Coord(id)
	return c
}

// torusOp reports whether op has a torus schedule.
func torusOp(op collective.Op) bool {
	return op == collective.OpAllReduce || op == collective.OpAllGather || op == collective.OpReduceScatter
}

// box is the torus grid gpus form for op, its slices (1 within one) and
// the index in gpus of each of its ranks: a box of one slice (torusBox),
// or the same box in every slice (slicesBox), whose all-reduce,
// reduce-scatter and all-gather are hierarchical (torus, then DCN).
func (tr *iteration) box(op collective.Op, gpus []int) (g collective.Grid, order []int, slices int, ok bool) {
	if !torusOp(op) {
		return g, nil, 0, false
	}
	if g, order, ok = torusBox(tr.topo.Torus, gpus); ok {
		return g, order, 1, true
	}
	return slicesBox(tr.topo.Torus, gpus)
}

// torusTime is the closed form of op of bytes over gpus when they are a
// box of the run's torus (box): collective.TorusTime on the ICI link
// between the box's first two chips, or over several slices
// collective.TorusSlicesTime with each chip's share of its host's DCN link
// (nccltest.DCNShare).
func (tr *iteration) torusTime(op collective.Op, gpus []int, bytes units.Bytes) (float64, bool) {
	g, order, m, ok := tr.box(op, gpus)
	if !ok {
		return 0, false
	}
	alpha, bw, err := tr.paths.Cost(gpus[order[0]], gpus[order[1]])
	if err != nil {
		return 0, false
	}
	if m == 1 {
		return collective.TorusTime(string(op), g, bytes, alpha, bw), true
	}
	da, dbw, err := nccltest.DCNShare(tr.topo)
	if err != nil {
		return 0, false
	}
	return collective.TorusSlicesTime(string(op), g, m, bytes, alpha, bw, da, dbw), true
}

// torusCollective adds op over gpus as a torus collective when they are a
// box of the run's torus (ok false otherwise, and nothing added): one span
// of the closed form (analytic), or every message of
// collective.TorusSchedule on the ICI links (detailed). It returns, per
// rank, the op after which the rank is done, as collective does.
func (tr *iteration) torusCollective(op collective.Op, purpose string, gpus, ready []int, bytes units.Bytes) (done []int, ok bool, err error) {
	g, order, m, ok := tr.box(op, gpus)
	if !ok {
		return nil, false, nil
	}
	done = make([]int, len(gpus))
	if tr.fid != detailed {
		secs, _ := tr.torusTime(op, gpus, bytes)
		if tr.mirrored {
			ready = slices.Compact(slices.Clone(ready)) // the mirrors wait for replica 0's ops
		}
		id := tr.g.AddClosedForm(taskgraph.ClosedForm{Op: op, Algorithm: "torus", Purpose: purpose, Bytes: bytes, GPUs: gpus,
			Time: max(1, units.Round(secs))}, ready...)
		for r := range done {
			done[r] = id
		}
		return done, true, nil
	}
	sch, err := collective.TorusSlicesSchedule(op, g, m, bytes)
	if err != nil {
		return nil, true, err
	}
	chips, rd := make([]int, len(order)), make([]int, len(order))
	for r, i := range order {
		chips[r], rd[r] = gpus[i], ready[i]
	}
	first := tr.g.AddSchedule(sch, chips, rd, purpose)
	// Grid rank r is done when the messages into it and out of it are.
	byRank := make([]int, len(order))
	for r := range byRank {
		byRank[r] = tr.g.AddJoin()
		done[order[r]] = byRank[r]
	}
	for i, t := range sch.Transfers {
		tr.g.Depend(byRank[t.Dst], first+i)
		tr.g.Depend(byRank[t.Src], first+i)
	}
	return done, true, nil
}
