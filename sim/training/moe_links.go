package training

import (
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
	// last is the last played exchange's flows, and sizes and times the
	// bytes a copy it was played at (the dispatch's and the combine's)
	// and its time at each.
	last  []flow
	sizes [2]float64
	times [2]units.Time
}

// play is the time flows between the group's GPUs take at bytesPer bytes
// a copy; a route the topology lacks leaves the flow out.
func (p *linkPlayer) play(gpus []int, fl []flow, bytesPer float64) units.Time {
	if !sameFlows(fl, p.last) {
		p.last, p.sizes = fl, [2]float64{}
	}
	for i, b := range p.sizes {
		if b == bytesPer {
			return p.times[i]
		}
	}
	var eng engine.Engine
	net := fabric.New(p.t, &eng)
	for _, f := range fl {
		if b := units.Bytes(f.copies*bytesPer + 0.5); b > 0 {
			_ = net.Send(gpus[f.src], gpus[f.dst], b, nil)
		}
	}
	t := eng.Run()
	p.sizes[0], p.sizes[1], p.times[0], p.times[1] = bytesPer, p.sizes[0], t, p.times[0]
	return t
}

// sameFlows reports whether a and b list the same flows.
func sameFlows(a, b []flow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
