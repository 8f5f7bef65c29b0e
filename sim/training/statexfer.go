package training

import (
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
// job goes from layout old to layout next.
type mover struct {
	from, to  held
	old, next placement
	gone      []bool             // cluster GPUs that hold nothing any more
	out       *timeline.Timeline // the run: its GPUs' servers
	owners    [][]owned          // unit → its old slices, each with its live holders
	xfers     []xfer
}

// owned is one old slice of a unit and the old layout's live GPUs that
// hold it.
type owned struct {
	lo, hi float64
	gs     []int
}

// xfer is the model state one cluster GPU sends another.
type xfer struct {
	src, dst int
	bytes    float64
}

// plan works out the transfers between cluster GPUs, by destination. Each
// GPU of the new layout needs its slices at the new layout's bytes per
// parameter; what it held itself in the old layout stays, the rest comes
// from an old holder of the slice that is still alive: one on the same
// server when there is one, else the holder dst mod holders, so that a
// GPU takes a stage's slices from one peer and the peers share the load.
// For ZeRO stages above 0 a GPU is taken to keep the share of the sharded
// states it held (ZeRO's shards are not tracked one by one).
func (m *mover) plan() error {
	m.owners = make([][]owned, m.from.model.Layers+2)
	for g, ps := range m.from.hold {
		for _, p := range ps {
			if m.gone[m.old.at(g)] {
				continue
			}
			os := m.owners[p.unit]
			i := slices.IndexFunc(os, func(o owned) bool { return o.lo == p.lo })
			if i < 0 {
				i, os = len(os), append(os, owned{lo: p.lo, hi: p.hi})
			}
			os[i].gs = append(os[i].gs, g)
			m.owners[p.unit] = os
		}
	}
	for g, ps := range m.to.hold {
		dst, first := m.next.at(g), len(m.xfers)
		var mine []piece
		if o := m.old.local(dst); o >= 0 {
			mine = m.from.hold[o]
		}
		for _, want := range ps {
			gaps := []piece{want}
			for _, p := range mine {
				if p.unit == want.unit { // keep what it holds: the parts of want outside p
					gaps = append(gaps[:0], piece{p.unit, want.lo, min(want.hi, p.lo)}, piece{p.unit, max(want.lo, p.hi), want.hi})
				}
			}
			for _, gap := range gaps {
				if gap.hi <= gap.lo {
					continue
				}
				if err := m.fetch(gap, dst, first); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// fetch charges gap, which cluster GPU dst needs, to the old holders of
// its parts: for each old slice it overlaps, one holder of that slice (see
// plan). dst's transfers so far start at xfers[first].
func (m *mover) fetch(gap piece, dst, first int) error {
	covered := 0.0
	for _, o := range m.owners[gap.unit] {
		if o.hi <= gap.lo || o.lo >= gap.hi {
			continue
		}
		src := m.old.at(o.gs[dst%len(o.gs)])
		for _, g := range o.gs {
			if c := m.old.at(g); m.out.GPUs[c].Node == m.out.GPUs[dst].Node {
				src = c
				break
			}
		}
		part := min(o.hi, gap.hi) - max(o.lo, gap.lo)
		covered += part
		m.add(first, src, dst, part*m.to.params(gap.unit)*m.to.perParam)
	}
	if covered < (gap.hi-gap.lo)*(1-1e-9) {
		return fmt.Errorf("recovery.policy: resihp lost every copy of model unit %d (no data-parallel replica of it survives)", gap.unit)
	}
	return nil
}

// add adds bytes from src to dst, whose transfers start at xfers[first].
func (m *mover) add(first, src, dst int, bytes float64) {
	for i := first; i < len(m.xfers); i++ {
		if m.xfers[i].src == src {
			m.xfers[i].bytes += bytes
			return
		}
	}
	m.xfers = append(m.xfers, xfer{src, dst, bytes})
}

// sendState plays the transfers on topology t from instant 0, one
// point-to-point message per pair (each GPU sends and receives one at a
// time, as every message of the simulator does): the run's state
// transfer, whose traffic is the "model" kind. It returns the bytes sent.
func sendState(t *topo.Topology, xfers []xfer) (*timeline.Timeline, float64, error) {
	n := len(t.GPUs)
	g := taskgraph.New(t, "state transfer")
	ch := g.AddChannel(collective.Schedule{Op: collective.OpSendRecv, Algorithm: "p2p", Ranks: n}, taskgraph.Identity(n), "model")
	total := 0.0
	for _, x := range xfers {
		if b := units.Bytes(x.bytes + 0.5); b > 0 {
			g.AddMessage(ch, collective.Transfer{Src: x.src, Dst: x.dst, Bytes: b, Phase: collective.PhaseState})
			total += float64(b)
		}
	}
	tl, err := g.Run()
	if err == nil && len(tl.Collectives) > 0 {
		tl.Collectives[0].Bytes = units.Bytes(total)
	}
	return tl, total, err
}
