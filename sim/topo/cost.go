package topo

import "paraplay/sim/units"

// PathCost is the latency (the sum over its links) and the bandwidth (the
// smallest of its links) of the route from GPU src to GPU dst: the α and
// the bandwidth of Hockney's α–β model for one message alone on it.
func (r *Router) PathCost(src, dst int) (units.Time, units.Bandwidth, error) {
	path, err := r.Route(src, dst)
	if err != nil {
		return 0, 0, err
	}
	var a units.Time
	var b units.Bandwidth
	for i, id := range path {
		l := r.topo.Links[id]
		a += l.Latency
		if i == 0 || l.Bandwidth < b {
			b = l.Bandwidth
		}
	}
	return a, b, nil
}

// Paths prices the routes of one topology, remembering each pair it has
// priced: a 16,384-GPU training run asks for the same few routes a hundred
// thousand times. It is not safe for concurrent use.
type Paths struct {
	router *Router
	cache  map[[2]int]pathCost
}

type pathCost struct {
	alpha units.Time
	bw    units.Bandwidth
}

// NewPaths prepares pricing routes on t.
func NewPaths(t *Topology) *Paths {
	return &Paths{router: NewRouter(t), cache: map[[2]int]pathCost{}}
}

// Cost is Router.PathCost from GPU src to GPU dst, cached.
func (p *Paths) Cost(src, dst int) (units.Time, units.Bandwidth, error) {
	if c, ok := p.cache[[2]int{src, dst}]; ok {
		return c.alpha, c.bw, nil
	}
	alpha, bw, err := p.router.PathCost(src, dst)
	if err != nil {
		return 0, 0, err
	}
	p.cache[[2]int{src, dst}] = pathCost{alpha, bw}
	return alpha, bw, nil
}

// Bottleneck is the α and bandwidth an α–β formula should use for a
// collective over gpus: the largest latency and the smallest bandwidth of
// the paths between neighbouring ranks (rank r to r+1, the last to the
// first), which is where rings and most schedules send. A group spanning
// two nodes thus pays for the network hop, not for the NVLink between its
// first two GPUs.
func (p *Paths) Bottleneck(gpus []int) (units.Time, units.Bandwidth, error) {
	var alpha units.Time
	var bw units.Bandwidth
	for i := range gpus {
		a, b, err := p.Cost(gpus[i], gpus[(i+1)%len(gpus)])
		if err != nil {
			return 0, 0, err
		}
		alpha = max(alpha, a)
		if bw == 0 || b < bw {
			bw = b
		}
	}
	return alpha, bw, nil
}
