package collective

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/units"
)

// TestProtocolsFollowTheirFormats checks each protocol against the
// numbers its format and NCCL's hwLat table give, written out again: LL
// carries 4 data bytes per 8 stored, LL128 120 per 128, Simple everything;
// the per-hop latencies of NCCL's ring (NVLink 0.47 / 1.9 / 3.4 µs, network
// 2.7 / 4.0 / 9.6 µs for LL / LL128 / Simple) from the catalog's LL128 α.
func TestProtocolsFollowTheirFormats(t *testing.T) {
	nvlink := Link{1900 * units.Nanosecond, 200 * units.GBps}
	net := Link{4 * units.Microsecond, 50 * units.GBps}
	for _, tc := range []struct {
		name             string
		eff              float64
		nvAlpha, netAlph units.Time
	}{
		{"simple", 1, 3400 * units.Nanosecond, 9600 * units.Nanosecond},
		{"ll128", 0.9375, 1900 * units.Nanosecond, 4000 * units.Nanosecond},
		{"ll", 0.5, 470 * units.Nanosecond, 2700 * units.Nanosecond},
	} {
		p, err := ProtocolByName(strings.ToUpper(tc.name))
		if err != nil {
			t.Fatal(err)
		}
		nv, nt := p.Apply(nvlink, LinkClass("nvlink")), p.Apply(net, LinkClass("infiniband"))
		if nv.Alpha != tc.nvAlpha || nt.Alpha != tc.netAlph {
			t.Errorf("%s: α NVLink %v, network %v; want %v and %v", tc.name, nv.Alpha, nt.Alpha, tc.nvAlpha, tc.netAlph)
		}
		if got := float64(nv.Bandwidth) / float64(nvlink.Bandwidth); math.Abs(got-tc.eff) > 1e-12 {
			t.Errorf("%s: bandwidth × %g, want × %g", tc.name, got, tc.eff)
		}
	}
}

func TestProtocolEdges(t *testing.T) {
	ll, _ := ProtocolByName("ll")
	if got := ll.Apply(Link{100 * units.Nanosecond, units.GBps}, ClassNVLink).Alpha; got != 0 {
		t.Errorf("LL on a 100 ns link: α = %v, want 0 (never negative)", got)
	}
	if _, err := ProtocolByName("ll256"); err == nil || !strings.Contains(err.Error(), "simple, ll128, ll") {
		t.Errorf("ProtocolByName(ll256) = %v, want an error listing simple, ll128, ll", err)
	}
	for kind, want := range map[string]int{"nvlink": ClassNVLink, "infinity-fabric": ClassNVLink, "pcie": ClassPCI, "infiniband": ClassNet, "roce": ClassNet, "wan": ClassNet} {
		if got := LinkClass(kind); got != want {
			t.Errorf("LinkClass(%s) = %d, want %d", kind, got, want)
		}
	}
}

// TestNVLSTime: the bus bandwidth of NVLSTime for large S is
// 2(n−1)/n of the link's over (n+1)/n + 1/9, written out from the payload
// each direction carries, (1 + 1/n)·S, and the read requests on the busier
// one: one 16-byte header per 128 bytes the switch reads, at a payload
// rate whose 128-byte writes already pay a 16-byte header each.
func TestNVLSTime(t *testing.T) {
	l := Link{3 * units.Microsecond, 100 * units.GBps}
	for _, n := range []int{2, 4, 8} {
		s := 64 * units.GiB
		secs := NVLSTime(n, s, l)
		nf := float64(n)
		wire := (1+1/nf)*(128+16) + 16 // bytes on the busier direction per 128 of S
		want := 2*3e-6 + wire/(128+16)*float64(s)/100e9
		if math.Abs(secs-want) > 1e-12*want {
			t.Errorf("n=%d: NVLSTime = %g, want %g", n, secs, want)
		}
		bus := float64(s) / secs * BusBWFactor("all_reduce", n) / 1e9
		if wantBus := 2 * (nf - 1) / nf / ((nf+1)/nf + 1.0/9) * 100; math.Abs(bus-wantBus)/wantBus > 1e-4 {
			t.Errorf("n=%d: busbw %.2f GB/s, want %.2f", n, bus, wantBus)
		}
	}
	if NVLSTime(1, units.GiB, l) != 0 {
		t.Error("NVLSTime on one GPU is not 0")
	}
}
