package training

import (
	"cmp"
	"fmt"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// held is what a layout puts on its GPUs: hold[g] lists the model units
// GPU g keeps (unit 0 the embedding, 1..L the layers, L+1 the output
// head), each as the slice [lo, hi) of the unit's weights its
// tensor-parallel rank owns.
type held struct {
	hold  [][]piece
	model workload.Model
	// perParam is the bytes of model state the layout keeps per parameter
	// of a slice: the bf16 weights and the optimizer states (ZeRO's
	// accounting over its replicas); gradients are recomputed, not moved.
	perParam float64
}

// piece is a slice of one unit.
type piece struct {
	unit   int
	lo, hi float64
}

// holdings works out what every GPU of layout s holds: the layers of its
// model stages (split as an iteration of s splits them, a balanced
// partition included), the embedding on the first stage, the head on the
// last, its tensor-parallel slice of each. Context-parallel ranks and
// data-parallel replicas hold the same slices.
func holdings(s scenario.Scenario) (held, error) {
	tr, err := splitOf(s, nil, 0)
	if err != nil {
		return held{}, err
	}
	c := &tr.costs
	first := make([]int, tr.stages+1) // first[k]: the first layer unit of model stage k
	first[0] = 1
	for k, n := range c.layers {
		first[k+1] = first[k] + n
	}
	p := tr.plan
	st := workload.ModelStateBytes(1, c.par.ZeRO, p.DP)
	h := held{hold: make([][]piece, p.World()), model: c.model, perParam: st.Parameters + st.OptimizerStates}
	for g := range h.hold {
		co := p.Coord(g)
		lo, hi := float64(co.TP)/float64(p.TP), float64(co.TP+1)/float64(p.TP)
		for _, k := range tr.stageOfDev[co.PP] {
			if k == 0 {
				h.hold[g] = append(h.hold[g], piece{0, lo, hi})
			}
			for u := first[k]; u < first[k+1]; u++ {
				h.hold[g] = append(h.hold[g], piece{u, lo, hi})
			}
			if k == tr.stages-1 {
				h.hold[g] = append(h.hold[g], piece{c.model.Layers + 1, lo, hi})
			}
		}
	}
	return h, nil
}

// params is the parameters of unit u (workload.StageParams, unsplit).
func (h held) params(u int) float64 {
	m := h.model
	switch u {
	case 0:
		return workload.StageParams(m, 0, true, false, 1, 1)
	case m.Layers + 1:
		return workload.StageParams(m, 0, false, true, 1, 1)
	}
	return workload.StageParams(m, 1, false, false, 1, 1)
}

// mover works out the model state that must cross the fabric when the
// job goes from one layout to another.
type mover struct {
	from, to     held
	fromAt, toAt func(int) int  // a layout's GPU → its cluster GPU
	gone         func(int) bool // cluster GPUs that hold nothing any more
	node         func(int) int  // a cluster GPU's server
	owners       map[int][]int  // unit → the old layout's live GPUs holding it
	bytes        map[[2]int]float64
}

// plan is the transfers, as (source, destination, bytes) between cluster
// GPUs, sorted. Each GPU of the new layout needs its slices at the new
// layout's bytes per parameter; what it held itself in the old layout
// stays, the rest comes from an old holder of the slice that is still
// alive: one on the same server when there is one, else the holder dst
// mod holders, so that a GPU takes a stage's slices from one peer and the
// peers share the load. For ZeRO
// stages above 0 a GPU is taken to keep the share of the sharded states
// it held (ZeRO's shards are not tracked one by one).
func (m *mover) plan() ([][3]float64, error) {
	m.owners, m.bytes = map[int][]int{}, map[[2]int]float64{}
	mine := map[[2]int]piece{} // (cluster GPU, unit) → its old slice
	for g, ps := range m.from.hold {
		for _, p := range ps {
			mine[[2]int{m.fromAt(g), p.unit}] = p
			if !m.gone(m.fromAt(g)) {
				m.owners[p.unit] = append(m.owners[p.unit], g)
			}
		}
	}
	for g, ps := range m.to.hold {
		dst := m.toAt(g)
		for _, want := range ps {
			for _, gap := range minus(want, mine[[2]int{dst, want.unit}]) {
				if err := m.fetch(gap, dst); err != nil {
					return nil, err
				}
			}
		}
	}
	out := make([][3]float64, 0, len(m.bytes))
	for k, b := range m.bytes {
		out = append(out, [3]float64{float64(k[0]), float64(k[1]), b})
	}
	slices.SortFunc(out, func(a, b [3]float64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out, nil
}

// minus is the parts of want outside have (have may be another unit's or
// empty): none, one or two slices.
func minus(want, have piece) []piece {
	if have.unit != want.unit || have.hi <= have.lo {
		return []piece{want}
	}
	var out []piece
	if want.lo < have.lo {
		out = append(out, piece{want.unit, want.lo, min(want.hi, have.lo)})
	}
	if want.hi > have.hi {
		out = append(out, piece{want.unit, max(want.lo, have.hi), want.hi})
	}
	return out
}

// fetch charges gap, which cluster GPU dst needs, to the old holders of
// its parts: for each old slice it overlaps, one holder of that slice (see
// plan).
func (m *mover) fetch(gap piece, dst int) error {
	var parts []piece // the old slices gap overlaps
	holders := map[float64][]int{}
	for _, g := range m.owners[gap.unit] {
		for _, p := range m.from.hold[g] {
			if p.unit == gap.unit && p.hi > gap.lo && p.lo < gap.hi {
				if _, ok := holders[p.lo]; !ok {
					parts = append(parts, p)
				}
				holders[p.lo] = append(holders[p.lo], g)
			}
		}
	}
	perUnit := m.to.params(gap.unit) * m.to.perParam
	covered := 0.0
	for _, p := range parts {
		gs := holders[p.lo]
		src := -1
		for _, g := range gs {
			if m.node(m.fromAt(g)) == m.node(dst) {
				src = m.fromAt(g)
				break
			}
		}
		if src < 0 {
			src = m.fromAt(gs[dst%len(gs)])
		}
		part := min(p.hi, gap.hi) - max(p.lo, gap.lo)
		covered += part
		if src != dst {
			m.bytes[[2]int{src, dst}] += part * perUnit
		}
	}
	if covered < (gap.hi-gap.lo)*(1-1e-9) {
		return fmt.Errorf("recovery.policy: resihp lost every copy of model unit %d (no data-parallel replica of it survives)", gap.unit)
	}
	return nil
}

// sendState plays the transfers (source, destination, bytes) on topology
// t from instant 0, one point-to-point message per pair (each GPU sends
// and receives one at a time, as every message of the simulator does):
// the run's state transfer. Its traffic is the "model" kind.
func sendState(t *topo.Topology, xfers [][3]float64) (*timeline.Timeline, error) {
	n := len(t.GPUs)
	g := taskgraph.New(t, "state transfer")
	var total units.Bytes
	for _, x := range xfers {
		total += units.Bytes(x[2] + 0.5)
	}
	ch := g.AddChannel(collective.Schedule{Op: collective.OpSendRecv, Algorithm: "p2p", Ranks: n, Bytes: total},
		taskgraph.Identity(n), "model")
	for _, x := range xfers {
		if b := units.Bytes(x[2] + 0.5); b > 0 {
			g.AddMessage(ch, collective.Transfer{Src: int(x[0]), Dst: int(x[1]), Bytes: b, Phase: "state"})
		}
	}
	return g.Run()
}
