package topo

import "fmt"

// Router finds the links a GPU-to-GPU message crosses: a shortest path by
// hop count that never passes through another GPU (GPUs do not forward
// traffic), ties broken by the lowest link id, so routes are deterministic.
// Routes from each source are computed once, on first use.
type Router struct {
	topo *Topology
	out  [][]int // out[v] lists the ids of links leaving vertex v, ascending
	// parent[src][v] is the link that reaches v on the route from src, or -1.
	parent map[int][]int32
}

// NewRouter prepares routing on t.
func NewRouter(t *Topology) *Router {
	r := &Router{topo: t, out: make([][]int, t.Vertices()), parent: map[int][]int32{}}
	for _, l := range t.Links {
		if l.From >= 0 && l.From < len(r.out) {
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
	par, ok := r.parent[src]
	if !ok {
		par = r.bfs(src)
		r.parent[src] = par
	}
	if par[dst] < 0 {
		return nil, fmt.Errorf("topo: %s cannot reach %s", t.VertexName(src), t.VertexName(dst))
	}
	var rev []int
	for v := dst; v != src; {
		l := t.Links[par[v]]
		rev = append(rev, l.ID)
		v = l.From
	}
	path := make([]int, len(rev))
	for i, id := range rev {
		path[len(rev)-1-i] = id
	}
	return path, nil
}

func (r *Router) bfs(src int) []int32 {
	t := r.topo
	par := make([]int32, t.Vertices())
	for i := range par {
		par[i] = -1
	}
	seen := make([]bool, t.Vertices())
	seen[src] = true
	queue := []int{src}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if v != src && t.IsGPU(v) {
			continue // reached, but GPUs do not forward
		}
		for _, id := range r.out[v] {
			w := t.Links[id].To
			if !seen[w] {
				seen[w] = true
				par[w] = int32(id)
				queue = append(queue, w)
			}
		}
	}
	return par
}
