package topo

import (
	"testing"

	"paraplay/sim/units"
)

func TestRing(t *testing.T) {
	for _, tc := range []struct{ n, links int }{{2, 2}, {3, 6}, {4, 8}, {16, 32}} {
		r := Ring(tc.n, 100*units.GBps, 5*units.Microsecond)
		if err := r.Validate(); err != nil {
			t.Fatalf("Ring(%d).Validate() = %v", tc.n, err)
		}
		if got := len(r.Links); got != tc.links {
			t.Errorf("Ring(%d) has %d links, want %d", tc.n, got, tc.links)
		}
		for i := 0; i < tc.n; i++ {
			for _, to := range []int{(i + 1) % tc.n, (i + tc.n - 1) % tc.n} {
				if _, ok := r.LinkBetween(i, to); !ok {
					t.Errorf("Ring(%d): no link %d→%d", tc.n, i, to)
				}
			}
		}
	}
}

func TestValidateRejects(t *testing.T) {
	bad := Ring(3, units.GBps, 0)
	bad.Links[0].To = bad.Links[0].From
	bad.Links[1].Bandwidth = 0
	bad.Links[2].From = 7
	if err := bad.Validate(); err == nil {
		t.Error("Validate() = nil for a broken topology")
	}
	if err := (&Topology{}).Validate(); err == nil {
		t.Error("Validate() = nil for an empty topology")
	}
}
