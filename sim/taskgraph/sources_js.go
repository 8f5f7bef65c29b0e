//go:build js

package taskgraph

// addSource leaves p's item at −1: its messages Leave (sources.go).
func (g *Graph) addSource(p *placedSchedule) {}

func (g *Graph) leaveItem(item int32) int { return -1 }
