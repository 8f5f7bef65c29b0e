package nccltest

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/golden"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestDetailedTracesUnchanged: the whole JSON trace of detailed runs (every
// message's start, end, path and rate pieces, and every collective's
// record) hashes as the golden file says. The file was written before the
// event path was redesigned for speed (the engine's batches per instant, the
// executor's records), so this is the proof that the redesign changed no
// byte. The runs cover rings and trees on channels across a
// rail-optimized cluster, where each message is alone on its links, and
// an oversubscribed fat tree, where messages share links and change rate.
func TestDetailedTracesUnchanged(t *testing.T) {
	intra := topo.Port{Bandwidth: 450 * units.GBps, Latency: 3 * units.Microsecond}
	inter := topo.Port{Bandwidth: 50 * units.GBps, Latency: 5 * units.Microsecond}
	rail, err := topo.Cluster(topo.ClusterConfig{Nodes: 8, PerNode: 8, Intra: intra, Inter: inter, Network: topo.RailOptimized})
	if err != nil {
		t.Fatal(err)
	}
	fat, err := topo.Cluster(topo.ClusterConfig{Nodes: 8, PerNode: 4, Intra: intra, Inter: inter, Network: topo.FatTree,
		NodesPerLeaf: 2, Oversubscription: 4})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tc := range []struct {
		name string
		top  *topo.Topology
		sch  collective.Schedule
		gpus []int // nil: rank r on GPU r
	}{
		{"ring-8x8-channels", rail, collective.ChannelRing(collective.OpAllReduce, 8, 8, 64*units.MiB, 1, 8), nil},
		{"ring-8x8-pipelined", rail, collective.ChannelRing(collective.OpAllReduce, 8, 8, 64*units.MiB, 4, 2), nil},
		{"tree-8x8", rail, collective.NCCLTree(8, 8, 64*units.MiB, 2, 8), nil},
		{"ring-fat-tree", fat, collective.ChannelRing(collective.OpAllReduce, 8, 4, 16*units.MiB, 2, 4), nil},
		{"flat-ring-fat-tree", fat, collective.Ring(32, 16*units.MiB), nil},
		// Neighbours in different servers and leaves: messages share the
		// spine and change rate as others end.
		{"scattered-ring-fat-tree", fat, collective.RingPipelined(32, 16*units.MiB, 3), scatter(32, 9)},
		{"all-to-all-fat-tree", fat, alltoall(t, 32), nil},
	} {
		gpus := tc.gpus
		if gpus == nil {
			gpus = taskgraph.Identity(tc.sch.Ranks)
		}
		tl, err := Collective(tc.top, tc.sch, gpus, tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		h := sha256.New()
		if err := timeline.WriteJSON(tl, h); err != nil {
			t.Fatal(err)
		}
		rates := 0
		for i := range tl.Transfers.Len() {
			rates += len(tl.Transfers.At(i).Rates)
		}
		fmt.Fprintf(&b, "%s: end %v, %d transfers, %d rate pieces, sha256 %x\n", tc.name, tl.End, tl.Transfers.Len(), rates, h.Sum(nil))
	}
	golden.Check(t, "testdata/detailed-traces.txt", []byte(b.String()))
}

// scatter places rank r on GPU r·k mod n (k prime to n).
func scatter(n, k int) []int {
	gpus := make([]int, n)
	for r := range gpus {
		gpus[r] = r * k % n
	}
	return gpus
}

func alltoall(t *testing.T, n int) collective.Schedule {
	sch, err := collective.New("all_to_all", "pairwise", collective.Config{Ranks: n, Bytes: 4 * units.MiB})
	if err != nil {
		t.Fatal(err)
	}
	return sch
}
