//go:build !js

package timeline

import (
	"reflect"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// TestTransfersFromASource: messages of a schedule the list holds
// (AddSource, LeaveItem) read back as Append would have kept them, beside
// loose ones, across two sources.
func TestTransfersFromASource(t *testing.T) {
	a := collective.Ring(3, 3*units.MB)
	b := collective.Ring(2, 2*units.MB)
	var xs Transfers
	first, wires := xs.AddSource(a.Transfers, 0)
	for k, tr := range a.Transfers {
		wires[k] = Wire{Src: int32(10 + tr.Src), Dst: int32(10 + tr.Dst), Bytes: tr.Bytes}
	}
	second, wires := xs.AddSource(b.Transfers, -1)
	for k, tr := range b.Transfers {
		wires[k] = Wire{Src: int32(20 + tr.Src), Dst: int32(20 + tr.Dst), Bytes: tr.Bytes}
	}
	if first != 0 || second != int32(len(a.Transfers)) {
		t.Fatalf("sources start at %d and %d, want 0 and %d", first, second, len(a.Transfers))
	}
	route := xs.Route([]int{1, 2})
	i := xs.LeaveItem(second+1, 5)
	j := xs.Leave(1, 2, 7, -1, 0, 0, 0, "send", 6)
	k := xs.LeaveItem(first+4, 7)
	for _, x := range []int{k, i, j} {
		xs.Arrive(x, route, units.Time(20+x), []Rate{{At: 8, BytesPerSecond: 1e9}})
	}
	phase := func(p collective.Phase) string { return p.String() }
	trB, trA := b.Transfers[1], a.Transfers[4]
	want := []Transfer{
		{Src: 20 + trB.Src, Dst: 20 + trB.Dst, Bytes: trB.Bytes, Collective: -1, Step: trB.Step, Chunk: trB.Chunk, Phase: phase(trB.Phase), Start: 5, End: 20},
		{Src: 1, Dst: 2, Bytes: 7, Collective: -1, Phase: "send", Start: 6, End: 21},
		{Src: 10 + trA.Src, Dst: 10 + trA.Dst, Bytes: trA.Bytes, Collective: 0, Step: trA.Step, Chunk: trA.Chunk, Phase: phase(trA.Phase), Start: 7, End: 22},
	}
	for n := range want {
		want[n].Path, want[n].Rates = []int{1, 2}, []Rate{{At: 8, BytesPerSecond: 1e9}}
		if got := xs.At(n); !reflect.DeepEqual(got, want[n]) {
			t.Errorf("At(%d) = %+v, want %+v", n, got, want[n])
		}
	}
}
