package training

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// placement is where a multi-iteration run's layout sits on the cluster:
// the scenario an iteration simulates and, once the resihp policy has
// regrouped the job onto a grid of the cluster's GPUs (regroup.go), the
// cluster GPU of each of the layout's GPUs. The scenario's own cluster is
// then that grid (nodes × gpus_per_node of the GPUs kept), so a fresh
// simulation of the layout is a simulation of that scenario.
type placement struct {
	s scenario.Scenario
	// phys[g] is the cluster GPU of the layout's GPU g; nil: the identity.
	phys []int
	// of[c] is the layout's GPU on cluster GPU c, or −1 (with phys).
	of []int
	// gen counts the re-plans that led to it: it keys the predictions.
	gen int
}

// at is the cluster GPU of the layout's GPU g.
func (p *placement) at(g int) int {
	if p.phys == nil {
		return g
	}
	return p.phys[g]
}

// local is the layout's GPU on cluster GPU c, or −1 when c is not in it.
func (p *placement) local(c int) int {
	if p.phys == nil {
		return c
	}
	return p.of[c]
}

// coord is where cluster GPU c sits in the layout's plan; ok is false when
// the layout leaves c out.
func (p *placement) coord(c int) (dp, pp int, ok bool) {
	g := p.local(c)
	if g < 0 {
		return 0, 0, false
	}
	co := p.s.Parallel.Plan().Coord(g)
	return co.DP, co.PP, true
}

// onCluster moves an iteration simulated on the layout's own grid onto
// the cluster: GPU ids through phys, and each message onto the cluster's
// route between its two GPUs (the grid keeps whole rails and servers, so
// the route crosses links of the same kinds and bandwidths). cluster is
// the run's timeline, which holds the cluster's GPUs and links.
func (p *placement) onCluster(tl, cluster *timeline.Timeline, router *topo.Router) error {
	if p.phys == nil {
		return nil
	}
	for i := range tl.Spans {
		tl.Spans[i].GPU = p.phys[tl.Spans[i].GPU]
	}
	for i := range tl.Collectives {
		c := &tl.Collectives[i]
		gpus := make([]int, len(c.GPUs))
		for k, g := range c.GPUs {
			gpus[k] = p.phys[g]
		}
		c.GPUs = gpus
	}
	routes := map[int][]int{}
	var rerr error
	tl.Transfers = tl.Transfers.Kept(func(x *timeline.Transfer) bool {
		x.Src, x.Dst = p.phys[x.Src], p.phys[x.Dst]
		key := x.Src*len(cluster.GPUs) + x.Dst
		if _, ok := routes[key]; !ok {
			path, err := router.Route(x.Src, x.Dst)
			if err != nil {
				rerr = err
			}
			routes[key] = path
		}
		x.Path = routes[key]
		return true
	})
	if rerr != nil {
		return fmt.Errorf("resihp: %w", rerr)
	}
	for i := range tl.Memory {
		tl.Memory[i].GPU = p.phys[tl.Memory[i].GPU]
	}
	tl.GPUs, tl.Switches, tl.Links = cluster.GPUs, cluster.Switches, cluster.Links
	return nil
}

// staticAt is the model states and buffers a GPU holds from instant at
// on (a re-plan changes them).
type staticAt struct {
	at units.Time
	m  timeline.Memory // only its static fields
}

// noteStatic records GPU m.GPU's static memory in an iteration that
// starts at off, when it differs from what it held before.
func (d *driver) noteStatic(m timeline.Memory, off units.Time) {
	m.Activations, m.KVCache = nil, nil
	if d.statics == nil {
		d.statics = make([][]staticAt, len(d.out.Memory))
	}
	segs := d.statics[m.GPU]
	if n := len(segs); n > 0 && segs[n-1].m.Static() == m.Static() {
		return
	}
	d.statics[m.GPU] = append(segs, staticAt{off, m})
}

// rebaseMemory makes the run's memory record follow the re-plans: a GPU's
// static fields become the smallest it held, and what it held beyond them
// in each stretch of the run is added to its activation points there (the
// series then counts, beside the activations, the model states a re-plan
// gave the GPU, from the new layout's first point on), so that every
// point's total is what the GPU held.
func (d *driver) rebaseMemory() {
	for g, segs := range d.statics {
		if len(segs) == 0 {
			continue
		}
		base := segs[0].m
		for _, s := range segs {
			if s.m.Static() < base.Static() {
				base = s.m
			}
		}
		om := &d.out.Memory[g]
		om.Parameters, om.Gradients, om.OptimizerStates, om.Buffers = base.Parameters, base.Gradients, base.OptimizerStates, base.Buffers
		k := 0
		for i := range om.Activations {
			p := &om.Activations[i]
			for k+1 < len(segs) && segs[k+1].at <= p.At {
				k++
			}
			p.Bytes += segs[k].m.Static() - base.Static()
			om.Peak = max(om.Peak, om.Static()+p.Bytes)
		}
	}
}
