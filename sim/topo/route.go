package topo

import "fmt"

// Router finds the links a GPU-to-GPU message crosses: a shortest path by
// hop count that never passes through another GPU (GPUs do not forward
// traffic, unless Topology.Forward says they do), ties broken by the
// lowest link id, so routes are deterministic.
// Each query is a breadth-first search that stops at the destination;
// callers that send many messages cache the routes they use.
type Router struct {
	topo   *Topology
	out    [][]int // out[v] lists the ids of links leaving vertex v, ascending
	stamp  []uint32
	parent []int32
	queue  []int
	search uint32
}

// NewRouter prepares routing on t.
func NewRouter(t *Topology) *Router {
	n := t.Vertices()
	r := &Router{topo: t, out: make([][]int, n), stamp: make([]uint32, n), parent: make([]int32, n)}
	for _, l := range t.Links {
		if l.From >= 0 && l.From < n {
			r.out[l.From] = append(r.out[l.From], l.ID)
		}
	}
	return r
}

// Route returns the link ids from GPU src to GPU dst.
func (r *Router) Route(src, dst int) ([]int, error) {
	t := r.topo
	if !t.IsGPU(src) || !t.IsGPU(dst) || src == dst {
		return nil, fmt.Errorf("topo: no route from %s to %s: both must be distinct GPUs", t.VertexName(src), t.VertexName(dst))
	}
	if !r.bfs(src, dst) {
		return nil, fmt.Errorf("topo: %s cannot reach %s", t.VertexName(src), t.VertexName(dst))
	}
	hops := 0
	for v := dst; v != src; v = t.Links[r.parent[v]].From {
		hops++
	}
	path := make([]int, hops)
	for v := dst; v != src; v = t.Links[r.parent[v]].From {
		hops--
		path[hops] = int(r.parent[v])
	}
	return path, nil
}

// bfs searches from src until it reaches dst, recording each reached
// vertex's parent link; it reports whether dst was reached.
func (r *Router) bfs(src, dst int) bool {
	t := r.topo
	r.search++
	if r.search == 0 { // wrapped: clear the stamps once every 2³² searches
		clear(r.stamp)
		r.search = 1
	}
	r.stamp[src] = r.search
	q := append(r.queue[:0], src)
	defer func() { r.queue = q[:0] }()
	for head := 0; head < len(q); head++ {
		v := q[head]
		if v != src && t.IsGPU(v) && !t.Forward {
			continue // reached, but GPUs do not forward
		}
		held := !r.relays(v)
		for _, id := range r.out[v] {
			w := t.Links[id].To
			if r.stamp[w] == r.search || (held && t.IsGPU(w)) {
				continue
			}
			r.stamp[w], r.parent[w] = r.search, int32(id)
			if w == dst {
				return true
			}
			q = append(q, w)
		}
	}
	return false
}

// relays reports whether vertex v, reached in the current search, may pass
// a message on to a GPU: anything but a KindHost switch reached from one
// of its own chips (a TPU host joins its chips to the network, not to
// each other).
func (r *Router) relays(v int) bool {
	t := r.topo
	if t.IsGPU(v) || t.Switches[v-len(t.GPUs)].Kind != KindHost || r.stamp[v] != r.search {
		return true
	}
	return !t.IsGPU(t.Links[r.parent[v]].From)
}
