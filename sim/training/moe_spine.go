//go:build !js

package training

import (
	"paraplay/sim/scenario"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// checkSpine accepts every oversubscription: this build prices the spine.
func checkSpine(*scenario.Scenario, scenario.Reporter) {}

// The spine: every expert-parallel group of a pipeline stage exchanges at
// the same moment (the data-parallel replicas run in lockstep), and their
// messages between leaves share the links between switches. Each GPU's
// NVLink and NIC belong to one group, so the groups meet only there; on a
// full-bisection network (the rail-optimized cluster, or a fat tree with
// cluster.oversubscription 1) no such link can be busier than the busiest
// NIC, but an oversubscribed fat tree's leaf uplinks can. The exchange
// then lasts at least as long as the busiest such link needs for all the
// groups' bytes across it:
//
//	α + max over switch-to-switch links L of Σ_groups (bytes over L) / B_L
//
// which joins the busiest-port bound (moe_exchange.go) in analytic
// fidelity, and bounds the group's exchange played alone on the links in
// detailed fidelity from below. Every group routes its tokens as the
// first group does (the routing's record makes the same assumption).

// trunkUse is how many of the groups' messages between one pair of
// members cross switch-to-switch link id.
type trunkUse struct {
	link, n int
}

// trunks lists, for each pair of members i·n+j of the expert-parallel
// group g, the switch-to-switch links that member i's messages to member j
// cross in all the groups of g's pipeline stage, with how many groups'
// messages cross each; nil when none crosses any.
func (tr *iteration) trunks(g []int) [][]trunkUse {
	t := tr.topo
	if t.Nodes <= 1 {
		return nil
	}
	pp := tr.plan.Coord(g[0]).PP
	var groups [][]int
	for r := range t.GPUs {
		if _, ep, _ := tr.plan.ExpertCoord(r); ep == 0 && tr.plan.Coord(r).PP == pp {
			groups = append(groups, tr.plan.ExpertGroup(r))
		}
	}
	// A route's links between switches depend only on the switches the
	// two GPUs' NICs plug into: route one pair of each.
	leaf := make([]int, len(t.GPUs))
	for i := range leaf {
		leaf[i] = -1 // no NIC on a network switch (a TPU chip): no trunk
	}
	for _, l := range t.Links {
		if t.IsGPU(l.From) && !t.IsGPU(l.To) && t.Switches[l.To-len(t.GPUs)].Node < 0 {
			leaf[l.From] = l.To
		}
	}
	router, cache := topo.NewRouter(t), map[[2]int][]int{}
	n, found := len(g), false
	out := make([][]trunkUse, n*n)
	for k := range out {
		i, j := k/n, k%n
		for _, h := range groups {
			a, b := h[i], h[j]
			if t.GPUs[a].Node == t.GPUs[b].Node || leaf[a] < 0 || leaf[b] < 0 {
				continue
			}
			key := [2]int{leaf[a], leaf[b]}
			ls, ok := cache[key]
			if !ok {
				route, _ := router.Route(a, b)
				for _, id := range route {
					if l := t.Links[id]; !t.IsGPU(l.From) && !t.IsGPU(l.To) {
						ls = append(ls, id)
					}
				}
				cache[key] = ls
			}
			for _, id := range ls {
				out[k] = addUse(out[k], id)
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	return out
}

// addUse counts one more message over link id.
func addUse(u []trunkUse, id int) []trunkUse {
	for i := range u {
		if u[i].link == id {
			u[i].n++
			return u
		}
	}
	return append(u, trunkUse{link: id, n: 1})
}

// spineTime is the busiest switch-to-switch link's time for every group's
// flows fl at bytesPer bytes a copy, with the slowest route's latency; 0
// when no flow crosses one.
func (x *exchange) spineTime(fl []flow, bytesPer float64) units.Time {
	if x.trunk == nil {
		return 0
	}
	load := make([]float64, len(x.net.Links))
	var alpha, most units.Time
	n := len(x.gpus)
	for _, f := range fl {
		for _, u := range x.trunk[f.src*n+f.dst] {
			load[u.link] += f.copies * bytesPer * float64(u.n)
			if a, _, err := x.paths.Cost(x.gpus[f.src], x.gpus[f.dst]); err == nil {
				alpha = max(alpha, a)
			}
		}
	}
	for id, b := range load {
		if b > 0 {
			most = max(most, units.Round(b/float64(x.net.Links[id].Bandwidth)))
		}
	}
	return alpha + most
}
