package scene_test

import (
	"strings"
	"testing"

	"paraplay/sim/scene"
	"paraplay/sim/units"
)

// The clients and the compute nodes of a split run are drawn apart: idle
// clients pale green-grey, idle compute nodes dark with the layers they
// hold on a badge, the slow client with its speed, and the node boxes
// named for what they hold. Packets on the uplinks are the activations'
// colour.
func TestSplitDrawsClientsAndComputeNodes(t *testing.T) {
	tl := simulate(t, "split-2hop.yaml", "")
	// 200 ms: every client uploads; compute node 1 waits.
	m := items(scene.Build(tl, 200*units.Millisecond, scene.Options{}))
	if got := m["node/0/label"].Text; !strings.HasPrefix(got, "clients · phone") {
		t.Errorf("node 0 is labelled %q, want the clients", got)
	}
	if got := m["node/1/label"].Text; !strings.HasPrefix(got, "compute nodes · t4 · 2 hops") {
		t.Errorf("node 1 is labelled %q, want the compute chain", got)
	}
	if got := m["gpu/4/badge/label"].Text; got != "L12–17" {
		t.Errorf("compute node 1's badge %q, want its layers L12–17", got)
	}
	if got := m["gpu/2/badge/label"].Text; got != "×0.5" {
		t.Errorf("the slow client's badge %q, want ×0.5", got)
	}
	idleCompute := m["gpu/4"].Fill
	var packets int
	for id, it := range m {
		if strings.HasPrefix(id, "xfer/") && !strings.Contains(id, "/label") {
			packets++
			if it.Fill == idleCompute {
				t.Errorf("packet %s has the compute nodes' colour", id)
			}
		}
	}
	if packets != 3 {
		t.Errorf("%d packets in flight at 200ms, want the 3 uploads", packets)
	}
	// After the round's backward on client 0 (576.6 ms), before round 2:
	// an idle client is not drawn like an idle compute node.
	m = items(scene.Build(tl, 580*units.Millisecond, scene.Options{}))
	if a, b := m["gpu/0"].Fill, m["gpu/4"].Fill; a == b {
		t.Errorf("idle client and idle compute node share the fill %v", a)
	}
	if c := m["caption"].Text; !strings.HasPrefix(c, "round 1 of 2") || !strings.Contains(c, "client 2") {
		t.Errorf("caption %q should name the round and the slowest client", c)
	}
	if got := m["metrics/rounds"].Text; !strings.HasPrefix(got, "2 · mean") {
		t.Errorf("metrics rounds %q", got)
	}
}

func TestSplitGoldenSVG(t *testing.T) {
	tl := simulate(t, "split-2hop.yaml", "")
	checkGoldenSVG(t, "split_2hop.svg", scene.Build(tl, 455*units.Millisecond, scene.Options{}))
}
