//go:build !js

package taskgraph

// On the host the timeline's list holds each placed schedule
// (timeline.Transfers.AddSource), and a message's record names its
// transfer there; the browser's runs are small, and its messages record
// their fields themselves (sources_js.go), which costs the download less.

// addSource has the timeline's list hold placed schedule p.
func (g *Graph) addSource(p *placedSchedule) {
	p.item, p.wires = g.out.Transfers.AddSource(p.sch.Transfers, p.tl)
}

// leaveItem records that message item of the list's sources leaves now.
func (g *Graph) leaveItem(item int32) int { return g.out.Transfers.LeaveItem(item, g.eng.Now()) }
