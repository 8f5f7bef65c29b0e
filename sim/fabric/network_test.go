package fabric

import (
	"testing"

	"paraplay/sim/topo"
	"paraplay/sim/units"
)

func TestSendQueuesOnABusyLink(t *testing.T) {
	// 1 GB/s and α = 1µs: 1000 bytes take 1µs + 1µs.
	n := New(topo.Ring(3, units.GBps, units.Microsecond))
	tests := []struct {
		now        units.Time
		src, dst   int
		start, end units.Time
	}{
		{0, 0, 1, 0, 2000},        // idle link
		{500, 0, 1, 2000, 4000},   // waits for the first message
		{500, 1, 0, 500, 2500},    // the other direction is its own link
		{9000, 0, 1, 9000, 11000}, // idle again
	}
	for _, tc := range tests {
		got, err := n.Send(tc.now, tc.src, tc.dst, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if got.Start != tc.start || got.End != tc.end {
			t.Errorf("Send(%v, %d→%d) = [%v, %v], want [%v, %v]", tc.now, tc.src, tc.dst, got.Start, got.End, tc.start, tc.end)
		}
	}
}

func TestSendWithoutLink(t *testing.T) {
	n := New(topo.Ring(4, units.GBps, 0))
	if _, err := n.Send(0, 0, 2, 10); err == nil {
		t.Error("Send(0→2) on a 4-ring succeeded; there is no direct link")
	}
}
