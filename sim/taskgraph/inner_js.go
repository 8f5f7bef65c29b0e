//go:build js

package taskgraph

// The browser build copies a schedule's waits into the edge list, as the
// host did before inner.go: its runs are small, and reading them from the
// schedule cost the wasm 3 KB. The two give the same lists in the same
// order (inner.go).

// innerEdges is unused in the browser build.
type innerEdges struct{}

// placeInner reports that the schedule's waits go into the edges.
func (g *Graph) placeInner(first, c int, ready []int) bool { return false }

func (g *Graph) fillInner() {}

func (a *adjacency) countAfter(first int, after, deps []int32) {}

// innerPredecessors is pre: every edge is in the list.
func (g *Graph) innerPredecessors(id int, pre []int) []int { return pre }
