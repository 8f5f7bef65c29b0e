package training

import (
	"paraplay/sim/engine"
	"paraplay/sim/fabric"
	"paraplay/sim/units"
)

// play is the time an all-to-all's flows take on the cluster's links at
// bytesPer bytes a copy, in detailed fidelity: every message posted at
// once on a network of its own (package fabric: each message pays its
// route's latency, then streams at its max-min fair share of every link
// it crosses), until the last one arrives; a route the topology lacks
// leaves its flow out. The expert-parallel group's exchange is played
// alone: the other groups exchange at the same moment on GPUs and NICs of
// their own and meet this one only on the links between switches, whose
// load from all of them bounds the exchange from below (moe_spine.go).
// (route plays a layer routed as all the others, a balanced router's,
// once.)
func (x *exchange) play(fl []flow, bytesPer float64) units.Time {
	var eng engine.Engine
	net := fabric.New(x.links, &eng)
	for _, f := range fl {
		if b := units.Bytes(f.copies*bytesPer + 0.5); b > 0 {
			_ = net.Send(x.gpus[f.src], x.gpus[f.dst], b, nil)
		}
	}
	return eng.Run()
}
