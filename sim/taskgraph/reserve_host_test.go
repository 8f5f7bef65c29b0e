//go:build !js

package taskgraph

import (
	"bytes"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestRoomMadeAheadChangesNothing: a run whose tables were made on
// another core (reserveRun) writes the same timeline, byte for byte, as
// one that grows them as it goes, including when more ops are added than
// were reserved.
func TestRoomMadeAheadChangesNothing(t *testing.T) {
	top, err := topo.Cluster(topo.ClusterConfig{Nodes: 4, PerNode: 4, Network: topo.RailOptimized,
		Intra: topo.Port{Bandwidth: 300 * units.GBps, Latency: 2 * units.Microsecond},
		Inter: topo.Port{Bandwidth: 25 * units.GBps, Latency: 5 * units.Microsecond}})
	if err != nil {
		t.Fatal(err)
	}
	sch := collective.ChannelRing(collective.OpAllReduce, 4, 4, 64*units.MiB, 2, 4)
	trace := func(ahead int, reserved int) []byte {
		defer func(old int) { aheadMessages = old }(aheadMessages)
		aheadMessages = ahead
		g := New(top, "room")
		g.Reserve(reserved, reserved, reserved)
		g.AddSchedule(sch, Identity(16), nil, "")
		tl := run(t, g)
		var b bytes.Buffer
		if err := timeline.WriteJSON(tl, &b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	n := len(sch.Transfers)
	want := trace(1<<30, n)
	for _, reserved := range []int{n, n / 2, 1} {
		if got := trace(1, reserved); !bytes.Equal(got, want) {
			t.Errorf("room made ahead for %d of %d messages: the trace differs", reserved, n)
		}
	}
}
