package training

import (
	"slices"

	"paraplay/sim/engine"
	"paraplay/sim/fabric"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// linkPlayer plays an all-to-all's flows on the cluster's links in
// detailed fidelity: every message posted at once on a network of its own
// (package fabric: each message pays its route's latency, then streams at
// its max-min fair share of every link it crosses), and the time the last
// one arrives is the all-to-all's. The expert-parallel group's exchange
// is played alone: the other groups exchange at the same moment on GPUs
// and NICs of their own and meet this one only on the spine, which the
// cluster presets build at full bisection. A layer routed as the last one
// (a balanced router's every layer) reuses its time.
type linkPlayer struct {
	t *topo.Topology
	// last is the last played exchange's flows, and times its time at
	// each bytes a copy played (the dispatch's and the combine's).
	last  []flow
	times map[float64]units.Time
}

func newLinkPlayer(t *topo.Topology) *linkPlayer { return &linkPlayer{t: t} }

// play is the time flows between the group's GPUs take at bytesPer bytes
// a copy; a route the topology lacks leaves the flow out.
func (p *linkPlayer) play(gpus []int, fl []flow, bytesPer float64) units.Time {
	if !slices.Equal(fl, p.last) {
		p.last, p.times = fl, map[float64]units.Time{}
	}
	if t, ok := p.times[bytesPer]; ok {
		return t
	}
	var eng engine.Engine
	net := fabric.New(p.t, &eng)
	for _, f := range fl {
		if b := units.Bytes(f.copies*bytesPer + 0.5); b > 0 {
			_ = net.Send(gpus[f.src], gpus[f.dst], b, nil)
		}
	}
	t := eng.Run()
	p.times[bytesPer] = t
	return t
}
