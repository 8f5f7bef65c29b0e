//go:build js

package taskgraph

// room is empty in the browser: its runs are small, and it has one thread
// (reserve_host.go).
type room struct{}

func (g *Graph) reserveRun(messages, rates int) { g.out.Transfers.Grow(messages, rates) }

func (g *Graph) takeRoom() { g.msgs.ports.size(len(g.ops)) }
