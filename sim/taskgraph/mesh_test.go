package taskgraph

import (
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Two messages from one GPU to two peers: behind a switch the single-port
// model sends them one after the other; on a mesh each cable is a port of
// its own (topo.Topology.DirectPorts) and both leave at once.
func TestMeshCablesAreSeparatePorts(t *testing.T) {
	mesh, err := topo.Mesh(3, port)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		t    *topo.Topology
		want [2]units.Time // when each message's last byte arrives
	}{
		{"switch", topo.Switched(3, port), [2]units.Time{1001 * units.Microsecond, 2002 * units.Microsecond}},
		{"mesh", mesh, [2]units.Time{1001 * units.Microsecond, 1001 * units.Microsecond}},
	} {
		g := New(tc.t, tc.name)
		c := g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "p2p", Ranks: 3}, []int{0, 1, 2}, PointToPoint)
		g.AddMessage(c, collective.Transfer{Src: 0, Dst: 1, Bytes: units.MB})
		g.AddMessage(c, collective.Transfer{Src: 0, Dst: 2, Bytes: units.MB})
		tl := run(t, g)
		for i := range tl.Transfers.Len() {
			x := tl.Transfers.At(i)
			if x.End != tc.want[i] {
				t.Errorf("%s: message %d arrives at %v, want %v", tc.name, i, x.End, tc.want[i])
			}
		}
	}
}
