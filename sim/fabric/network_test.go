package fabric

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"paraplay/sim/engine"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"unsafe"
)

type send struct {
	at       units.Time
	src, dst int
	bytes    units.Bytes
}

// play runs the sends on t and returns each message's record.
func play(t *testing.T, tp *topo.Topology, sends []send) []*Message {
	t.Helper()
	var eng engine.Engine
	net := New(tp, &eng)
	got := make([]*Message, len(sends))
	for i, s := range sends {
		i, s := i, s
		eng.At(s.at, func() {
			if err := net.Send(s.src, s.dst, s.bytes, func(m *Message) { got[i] = m }); err != nil {
				t.Fatal(err)
			}
		})
	}
	eng.Run()
	for i, m := range got {
		if m == nil {
			t.Fatalf("message %d never arrived", i)
		}
	}
	return got
}

func TestUncontendedMessageCostsAlphaPlusSOverB(t *testing.T) {
	// 1 GB/s and α = 1µs on the uplink: 1000 bytes take 1µs + 1µs.
	sw := topo.Switched(4, topo.Port{Bandwidth: units.GBps, Latency: units.Microsecond})
	got := play(t, sw, []send{{0, 0, 1, 1000}, {500, 2, 3, 1000}})
	for i, want := range [][2]units.Time{{0, 2000}, {500, 2500}} {
		if got[i].Start != want[0] || got[i].End != want[1] {
			t.Errorf("message %d: [%v, %v], want [%v, %v]", i, got[i].Start, got[i].End, want[0], want[1])
		}
	}
	if c := Cost(sw, PathOf(got[0]), 1000); c != 2000 {
		t.Errorf("Cost = %v, want 2µs", c)
	}
}

func TestFlowsSharingALinkGetHalfEach(t *testing.T) {
	// GPU 0 and GPU 1 both send 1 MB to GPU 2: GPU 2's downlink is shared,
	// so each flow runs at 0.5 GB/s and both take 2 ms instead of 1 ms.
	sw := topo.Switched(3, topo.Port{Bandwidth: units.GBps})
	got := play(t, sw, []send{{0, 0, 2, 1e6}, {0, 1, 2, 1e6}})
	for i, m := range got {
		if m.End != 2*units.Millisecond {
			t.Errorf("flow %d ends at %v, want 2ms", i, m.End)
		}
		if len(m.Rates) != 1 || m.Rates[0].BytesPerSecond != 0.5e9 {
			t.Errorf("flow %d rates %v, want one piece at 0.5 GB/s", i, m.Rates)
		}
	}
}

func TestLateFlowSlowsAnEarlyOne(t *testing.T) {
	// Flow A (2 MB) starts alone at 1 GB/s; at 1 ms flow B (0.5 MB) joins on
	// the same downlink. Both get 0.5 GB/s: B needs 1 ms and ends at 2 ms;
	// A has 1 MB left at 1 ms, sends 0.5 MB by 2 ms, then the last 0.5 MB
	// alone at full speed: it ends at 2.5 ms.
	sw := topo.Switched(3, topo.Port{Bandwidth: units.GBps})
	got := play(t, sw, []send{{0, 0, 2, 2e6}, {units.Millisecond, 1, 2, 0.5e6}})
	if got[0].End != 2500*units.Microsecond || got[1].End != 2*units.Millisecond {
		t.Errorf("A ends %v (want 2.5ms), B ends %v (want 2ms)", got[0].End, got[1].End)
	}
	want := "[{0ns 1e+09} {1ms 5e+08} {2ms 1e+09}]"
	if s := fmt.Sprint(got[0].Rates); s != want {
		t.Errorf("A's rates %s, want %s", s, want)
	}
}

func TestMaxMinFairness(t *testing.T) {
	// The textbook case: flows 0→2 and 1→2 share GPU 2's 1 GB/s downlink
	// (0.5 each); flow 1→3 shares GPU 1's uplink with 1→2, which takes only
	// 0.5, so 1→3 gets the other 0.5... and flow 0→3 shares GPU 0's uplink
	// and GPU 3's downlink. All four end up at 0.5 GB/s.
	sw := topo.Switched(4, topo.Port{Bandwidth: units.GBps})
	got := play(t, sw, []send{{0, 0, 2, 1e6}, {0, 1, 2, 1e6}, {0, 1, 3, 1e6}, {0, 0, 3, 1e6}})
	for i, m := range got {
		if m.Rates[0].BytesPerSecond != 0.5e9 {
			t.Errorf("flow %d starts at %v B/s, want 0.5e9", i, m.Rates[0].BytesPerSecond)
		}
	}
	// Unequal case: 0→1 alone on its links except GPU 1's downlink, which
	// it shares with 2→1 and 3→1 (a third each); 2→3 then gets what GPU 2's
	// uplink has left: two thirds.
	got = play(t, sw, []send{{0, 0, 1, 1e6}, {0, 2, 1, 1e6}, {0, 3, 1, 1e6}, {0, 2, 3, 1e6}})
	wants := []float64{1e9 / 3, 1e9 / 3, 1e9 / 3, 2e9 / 3}
	for i, m := range got {
		if r := m.Rates[0].BytesPerSecond; r < wants[i]*(1-1e-12) || r > wants[i]*(1+1e-12) {
			t.Errorf("flow %d starts at %v B/s, want %v", i, r, wants[i])
		}
	}
}

func TestTwoRingsCrossingOneLinkRunAtHalfSpeed(t *testing.T) {
	// Two messages from different GPUs of node 0 to the same rail of node
	// 1 both cross the rail's downlink... here: GPU 0→GPU 2 and GPU 1→GPU 2
	// in a 2-node rail cluster meet on rail 0's link to GPU 2.
	rail, _ := topo.Cluster(topo.ClusterConfig{Nodes: 2, PerNode: 2,
		Intra: topo.Port{Bandwidth: 100 * units.GBps}, Inter: topo.Port{Bandwidth: 10 * units.GBps}, Network: topo.RailOptimized})
	alone := play(t, rail, []send{{0, 0, 2, 1e8}})[0].End
	both := play(t, rail, []send{{0, 0, 2, 1e8}, {0, 1, 2, 1e8}})
	for i, m := range both {
		if m.End != 2*alone {
			t.Errorf("flow %d with contention ends at %v, want 2 × %v", i, m.End, alone)
		}
	}
}

func TestSendWithoutRoute(t *testing.T) {
	var eng engine.Engine
	n := New(topo.Ring(4, units.GBps, 0), &eng)
	if err := n.Send(0, 2, 10, nil); err == nil {
		t.Error("Send(0→2) on a 4-ring succeeded; GPUs do not forward")
	}
}

func BenchmarkManyFlows(b *testing.B) {
	sw := topo.Switched(256, topo.Port{Bandwidth: 100 * units.GBps, Latency: units.Microsecond})
	for b.Loop() {
		var eng engine.Engine
		net := New(sw, &eng)
		for i := 0; i < 256; i++ {
			net.Send(i, (i+1)%256, units.MiB, nil)
			net.Send(i, (i+7)%256, units.MiB/2, nil)
		}
		eng.Run()
	}
}

// TestRouteCacheAgreesWithRouter: a GPU sending to three peers in turn
// (more than its two recent routes) gets the router's path every time.
func TestRouteCacheAgreesWithRouter(t *testing.T) {
	rail, _ := topo.Cluster(topo.ClusterConfig{Nodes: 2, PerNode: 4,
		Intra: topo.Port{Bandwidth: 100 * units.GBps}, Inter: topo.Port{Bandwidth: 10 * units.GBps}, Network: topo.RailOptimized})
	var eng engine.Engine
	n := New(rail, &eng)
	router := topo.NewRouter(rail)
	for i, dst := range []int{1, 4, 1, 4, 5, 1, 5, 4, 4, 1} {
		got, err := n.Route(0, dst)
		want, wantErr := router.Route(0, dst)
		if err != nil || wantErr != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("call %d: Route(0, %d) = %v, %v; want %v, %v", i, dst, got, err, want, wantErr)
		}
	}
}

// TestShareMatchesProgressiveFilling: the flows that share sets alone on
// their links before the filling get, bit for bit, the rates of plain
// progressive filling (written out again here), on random sets of flows
// over the links of a switched node, some alone and some sharing.
func TestShareMatchesProgressiveFilling(t *testing.T) {
	sw := topo.Switched(8, topo.Port{Bandwidth: 100 * units.GBps})
	for i := range sw.Links {
		sw.Links[i].Bandwidth = units.Bandwidth(float64(10+7*i) * 1e9) // all different
	}
	rng := rand.New(rand.NewPCG(21, 3))
	for run := range 500 {
		var eng engine.Engine
		n := New(sw, &eng)
		var flows []*Message
		seen := map[int]bool{}
		var links []int
		for range 1 + rng.IntN(8) {
			src, dst := rng.IntN(8), rng.IntN(8)
			if src == dst {
				continue
			}
			rt, err := n.route(src, dst)
			if err != nil {
				t.Fatal(err)
			}
			path := rt.path
			m := &Message{Route: int32(rt.id), net: n}
			flows = append(flows, m)
			for _, id := range path {
				n.onLink[id] = append(n.onLink[id], m)
				if !seen[id] {
					seen[id] = true
					links = append(links, id)
				}
			}
		}
		n.share(flows, links)
		want := fill(sw, flows, n.onLink)
		for i, m := range flows {
			if m.rate != want[i] {
				t.Errorf("run %d, flow %d: rate %v, want %v", run, i, m.rate, want[i])
			}
		}
	}
}

// fill is progressive filling over every link of flows, each link shared
// by the flows onLink lists.
func fill(tp *topo.Topology, flows []*Message, onLink [][]*Message) []float64 {
	residual := make([]float64, len(tp.Links))
	count := make([]int, len(tp.Links))
	for id := range tp.Links {
		residual[id], count[id] = float64(tp.Links[id].Bandwidth), len(onLink[id])
	}
	rate := make([]float64, len(flows))
	frozen := make([]bool, len(flows))
	for left := len(flows); left > 0; {
		best := -1.0
		for id := range tp.Links {
			if count[id] > 0 {
				if s := max(0, residual[id]/float64(count[id])); best < 0 || s < best {
					best = s
				}
			}
		}
		for i, m := range flows {
			limited := false
			for _, id := range PathOf(m) {
				limited = limited || count[id] > 0 && max(0, residual[id]/float64(count[id])) <= best
			}
			if frozen[i] || !limited {
				continue
			}
			frozen[i], rate[i] = true, best
			left--
			for _, id := range PathOf(m) {
				residual[id] -= best
				count[id]--
			}
		}
	}
	return rate
}

// TestMessageFitsTwoCacheLines: the size the message's doc promises (a
// large run touches every recycled message several times per step).
func TestMessageFitsTwoCacheLines(t *testing.T) {
	if got := unsafe.Sizeof(Message{}); got != 128 {
		t.Errorf("Message is %d bytes, want 128", got)
	}
}

// arrivals records each message's start, end and first rate piece by tag.
type arrivals map[int][3]units.Time

func (a arrivals) Arrived(m *Message) { a[m.Tag] = [3]units.Time{m.Start, m.End, m.Rates[0].At} }

// TestRecycledMessageIgnoresItsStaleEvent: a message whose completion was
// re-armed earlier leaves its first completion event behind; reused for
// a later message, it must not take that event for the end of its new
// latency. B (3 MB) shares a downlink with A (1 MB) from 1 ms and is
// armed for 7 ms; once A ends at 3 ms, B is re-armed and ends at 5 ms.
// C, sent at 6 ms + 1 ns, clears its 1 ms of latency at 7 ms + 1 ns, not
// at the stale 7 ms (until 2026-12 it started 1 ns early).
func TestRecycledMessageIgnoresItsStaleEvent(t *testing.T) {
	sw := topo.Switched(4, topo.Port{Bandwidth: units.GBps, Latency: units.Millisecond})
	var eng engine.Engine
	net := New(sw, &eng)
	got := arrivals{}
	eng.At(0, func() {
		net.SendTo(0, 1, 1e6, got, 1)
		net.SendTo(3, 1, 3e6, got, 2)
	})
	eng.At(6*units.Millisecond+1, func() { net.SendTo(2, 3, 1e6, got, 3) })
	eng.Run()
	for tag, want := range map[int][3]units.Time{
		1: {0, 3 * units.Millisecond, units.Millisecond},
		2: {0, 5 * units.Millisecond, units.Millisecond},
		3: {6*units.Millisecond + 1, 8*units.Millisecond + 1, 7*units.Millisecond + 1},
	} {
		if got[tag] != want {
			t.Errorf("message %d: start, end, first rate at %v, want %v", tag, got[tag], want)
		}
	}
}
