package scene_test

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/scene"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// clusterRun runs a 64 MiB all-reduce with algo over every GPU of the
// cluster that spec describes, at fidelity.
func clusterRun(t testing.TB, spec cluster.Spec, algo, fidelity string) *timeline.Timeline {
	t.Helper()
	b, err := cluster.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	return measure(t, b.Topology, b.Spec.Nodes, b.Spec.PerNode, algo, fidelity)
}

func measure(t testing.TB, tp *topo.Topology, nodes, perNode int, algo, fidelity string) *timeline.Timeline {
	t.Helper()
	cfg := collective.Config{Ranks: nodes * perNode, Nodes: nodes, PerNode: perNode, Bytes: 64 * units.MiB}
	_, tl, err := nccltest.MeasureCollective(tp, "all_reduce", algo, cfg, fidelity)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// fatTree is 4 nodes × 2 GPUs on a fat tree of two leaves (two nodes
// each) under a spine with 2:1 oversubscription. cluster.Spec has no
// NodesPerLeaf (its default of 4 puts all 4 nodes on one leaf, with no
// spine), so the topology is built with the cluster's own ports.
func fatTree(t testing.TB) *timeline.Timeline {
	t.Helper()
	b, err := cluster.Build(cluster.Spec{Nodes: 4, PerNode: 2, Network: topo.FatTree, Oversubscription: 2})
	if err != nil {
		t.Fatal(err)
	}
	tp, err := topo.Cluster(topo.ClusterConfig{Nodes: 4, PerNode: 2, Intra: b.Intra, Inter: b.Inter,
		Network: topo.FatTree, NodesPerLeaf: 2, Oversubscription: 2})
	if err != nil {
		t.Fatal(err)
	}
	return measure(t, tp, 4, 2, "ring", taskgraph.Detailed)
}

// clusterGoldens are the topology-view frames kept as golden SVGs, each a
// fraction of the way through its run.
func clusterGoldens(t testing.TB) []struct {
	file string
	tl   *timeline.Timeline
	frac float64
} {
	return []struct {
		file string
		tl   *timeline.Timeline
		frac float64
	}{
		{"nvswitch8_ring.svg", clusterRun(t, cluster.Spec{Nodes: 1, PerNode: 8}, "ring", taskgraph.Detailed), 0.3},
		{"rail2x4_hierarchical.svg", clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "hierarchical", taskgraph.Detailed), 0.45},
		{"fattree4x2_ring.svg", fatTree(t), 0.3},
		{"rail2x4_analytic.svg", clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "ring", taskgraph.Analytic), 0.5},
	}
}

func at(tl *timeline.Timeline, frac float64) units.Time {
	return units.Time(frac * float64(tl.End))
}

func TestClusterGoldenSVG(t *testing.T) {
	for _, g := range clusterGoldens(t) {
		checkGoldenSVG(t, g.file, scene.Build(g.tl, at(g.tl, g.frac), scene.Options{}))
	}
}

// clusterCases are clusters from 2 to 64 GPUs in detail, and larger ones
// analytic, for the checks that hold at every size.
func clusterCases(t testing.TB) map[string]*timeline.Timeline {
	cases := map[string]*timeline.Timeline{}
	for _, c := range []struct{ nodes, per int }{{1, 2}, {1, 8}, {2, 4}, {3, 5}, {4, 8}, {8, 8}, {16, 4}} {
		name := itoa(c.nodes) + "x" + itoa(c.per)
		cases[name] = clusterRun(t, cluster.Spec{Nodes: c.nodes, PerNode: c.per}, "ring", taskgraph.Detailed)
	}
	cases["fat-tree"] = fatTree(t)
	cases["fat-tree 16x4"] = clusterRun(t, cluster.Spec{Nodes: 16, PerNode: 4, Network: topo.FatTree, Oversubscription: 2}, "ring", taskgraph.Detailed)
	cases["analytic 64x8"] = clusterRun(t, cluster.Spec{Nodes: 64, PerNode: 8}, "ring", taskgraph.Analytic)
	cases["analytic 512x8"] = clusterRun(t, cluster.Spec{Nodes: 512, PerNode: 8, Network: topo.FatTree}, "ring", taskgraph.Analytic)
	return cases
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestClusterItemsInsideCanvasAndUnique(t *testing.T) {
	for name, tl := range clusterCases(t) {
		for _, opt := range []scene.Options{{}, {Width: 320, Height: 200}, {Width: 1920, Height: 1080}} {
			for _, frac := range []float64{0, 0.37, 1} {
				dl := scene.Build(tl, at(tl, frac), opt)
				seen := map[string]bool{}
				for _, it := range dl.Items {
					if seen[it.ID] {
						t.Fatalf("%s %v: duplicate ID %q", name, opt, it.ID)
					}
					seen[it.ID] = true
					if !inside(it, dl) {
						t.Errorf("%s %v at %.2f: %q leaves the %v×%v canvas", name, opt, frac, it.ID, dl.Width, dl.Height)
					}
				}
				for _, want := range []string{"node/0", "switch/" + itoa(len(tl.GPUs))} {
					if !seen[want] {
						t.Errorf("%s %v: no %q", name, opt, want)
					}
				}
				if _, ok := drawnLinks(t, tl, dl)[0]; !ok {
					t.Errorf("%s %v: link 0 is not drawn", name, opt)
				}
				// GPU 0 has a box, or node 0 a bar of its GPUs' states
				// when the boxes would be under minGPUBox.
				if !seen["gpu/0"] && !seen["node/0/gpus"] {
					t.Errorf("%s %v: neither gpu/0 nor node/0/gpus", name, opt)
				}
			}
		}
	}
}

// inside reports whether it lies within the canvas (text by its height and
// estimated width).
func inside(it scene.Item, dl scene.DrawList) bool {
	x0, y0, x1, y1 := it.X, it.Y, it.X+it.W, it.Y+it.H
	switch it.Shape {
	case scene.Line:
		x1, y1 = it.X2, it.Y2
	case scene.Text:
		y0 -= it.Size
	}
	return min(x0, x1) >= 0 && min(y0, y1) >= 0 && max(x0, x1) <= dl.Width && max(y0, y1) <= dl.Height
}

func TestClusterBuildDeterministic(t *testing.T) {
	tl := clusterRun(t, cluster.Spec{Nodes: 8, PerNode: 8}, "ring", taskgraph.Detailed)
	a, b := scene.Build(tl, at(tl, 0.4), scene.Options{}), scene.Build(tl, at(tl, 0.4), scene.Options{})
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two Builds of the same instant differ")
	}
}

// TestClusterLabelsLegible: at the default size, 64 GPUs in 16 nodes keep
// every node box and GPU box at least a few pixels wide and tall, and no
// text smaller than 7px.
func TestClusterLabelsLegible(t *testing.T) {
	tl := clusterRun(t, cluster.Spec{Nodes: 16, PerNode: 4}, "ring", taskgraph.Detailed)
	dl := scene.Build(tl, at(tl, 0.5), scene.Options{})
	for _, it := range dl.Items {
		switch {
		case it.Shape == scene.Text && it.Size < 7:
			t.Errorf("%q: text %.1fpx high", it.ID, it.Size)
		case it.Shape == scene.Rect && strings.HasPrefix(it.ID, "gpu/") && (it.W < 6 || it.H < 6):
			t.Errorf("%q: box %.1f×%.1f", it.ID, it.W, it.H)
		}
	}
}

func BenchmarkBuildCluster(b *testing.B) {
	for _, c := range []struct {
		name string
		spec cluster.Spec
	}{{"gpus=8", cluster.Spec{Nodes: 1, PerNode: 8}}, {"gpus=64", cluster.Spec{Nodes: 8, PerNode: 8}}, {"gpus=512", cluster.Spec{Nodes: 64, PerNode: 8}}} {
		tl := clusterRun(b, c.spec, "ring", taskgraph.Detailed)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var t units.Time
			step := tl.End / 997
			for b.Loop() {
				scene.Build(tl, t, scene.Options{})
				t = (t + step) % tl.End
			}
		})
		// Frames is what the app uses: per-run work done once.
		b.Run(c.name+"/Frames", func(b *testing.B) {
			b.ReportAllocs()
			f := scene.NewFrames(tl)
			var t units.Time
			step := tl.End / 997
			for b.Loop() {
				f.Build(t, scene.Options{Width: 1280, Height: 800})
				t = (t + step) % tl.End
			}
		})
	}
}

// TestNodeStatesAt1024GPUs checks the aggregated cluster view: 1,024 GPUs
// (128 nodes × 8) on an 800×500 embed would get boxes under 3 pixels, so
// each node is drawn as one bar split by its GPUs' states; the split must
// match StateAt GPU by GPU, in proportion, and the bars must fill their
// outline exactly.
func TestNodeStatesAt1024GPUs(t *testing.T) {
	tl := clusterRun(t, cluster.Spec{Nodes: 128, PerNode: 8}, "ring", taskgraph.Analytic)
	for _, frac := range []float64{0.01, 0.37, 0.9} {
		at := at(tl, frac)
		dl := scene.Build(tl, at, scene.Options{Width: 800, Height: 500})
		if _, ok := findItem(dl, "gpu/0"); ok {
			t.Fatalf("t=%v: gpu/0 drawn as a box at 1,024 GPUs; want node bars", at)
		}
		for _, node := range []int{0, 77, 127} {
			outline, ok := findItem(dl, "node/"+itoa(node)+"/gpus")
			if !ok {
				t.Fatalf("t=%v: no node/%d/gpus", at, node)
			}
			count := map[string]int{}
			for g := node * 8; g < node*8+8; g++ {
				count[scene.StateAt(tl, g, at).String()]++
			}
			sum := 0.0
			for st, k := range count {
				bar, ok := findItem(dl, "node/"+itoa(node)+"/gpus/"+st)
				if !ok {
					t.Fatalf("t=%v node %d: %d GPUs %s but no bar for it", at, node, k, st)
				}
				if want := outline.W * float64(k) / 8; math.Abs(bar.W-want) > 1e-9 {
					t.Errorf("t=%v node %d %s: bar %.3f px wide, want %d/8 of %.3f = %.3f", at, node, st, bar.W, k, outline.W, want)
				}
				sum += bar.W
			}
			if math.Abs(sum-outline.W) > 1e-9 {
				t.Errorf("t=%v node %d: bars sum to %.3f px, outline %.3f", at, node, sum, outline.W)
			}
		}
	}
}

// findItem returns the item with the given ID.
func findItem(dl scene.DrawList, id string) (scene.Item, bool) {
	for _, it := range dl.Items {
		if it.ID == id {
			return it, true
		}
	}
	return scene.Item{}, false
}

// drawnLinks maps each link drawn in dl to the ID of its line: "link/<i>",
// or "link/<i>+<j>" for a pair drawn as one line. It fails the test when a
// link is drawn twice or a pair is not two directions of one connection.
func drawnLinks(t *testing.T, tl *timeline.Timeline, dl scene.DrawList) map[int]string {
	t.Helper()
	drawn := map[int]string{}
	for _, it := range dl.Items {
		rest, ok := strings.CutPrefix(it.ID, "link/")
		if !ok {
			continue
		}
		var ids []int
		for _, f := range strings.Split(rest, "+") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("link item %q: %v", it.ID, err)
			}
			ids = append(ids, n)
		}
		if len(ids) == 2 {
			a, b := tl.Links[ids[0]], tl.Links[ids[1]]
			if a.From != b.To || a.To != b.From {
				t.Errorf("%q pairs %d→%d with %d→%d; want opposite directions", it.ID, a.From, a.To, b.From, b.To)
			}
		}
		for _, n := range ids {
			if prev, dup := drawn[n]; dup {
				t.Errorf("link %d drawn by %q and %q", n, prev, it.ID)
			}
			drawn[n] = it.ID
		}
	}
	return drawn
}

// TestLinkPairsDrawnOnce checks the pairing of links into one line: at 512
// GPUs on 1280×800 the two directions of a cable lie under 1.6 pixels apart
// and are drawn as one line, every link still drawn exactly once and
// described on hover; at 64 GPUs every link keeps its own line. (The
// line's colour is checked in TestLinkPairColour.)
func TestLinkPairsDrawnOnce(t *testing.T) {
	tl := clusterRun(t, cluster.Spec{Nodes: 64, PerNode: 8}, "ring", taskgraph.Analytic)
	at := at(tl, 0.37)
	dl := scene.Build(tl, at, scene.Options{Width: 1280, Height: 800})
	drawn := drawnLinks(t, tl, dl)
	if len(drawn) != len(tl.Links) {
		t.Errorf("%d of %d links drawn; want all", len(drawn), len(tl.Links))
	}
	lines := map[string]bool{}
	for _, id := range drawn {
		lines[id] = true
	}
	if len(lines) > len(drawn)*6/10 {
		t.Errorf("%d lines for %d links; want the cable pairs drawn as one line", len(lines), len(drawn))
	}
	for id := range lines {
		if strings.Contains(id, "+") {
			if d := scene.Describe(tl, id, at); strings.Count(d, "link ") != 2 {
				t.Errorf("Describe(%s) = %q; want both links", id, d)
			}
		}
	}
	for _, it := range scene.Build(clusterRun(t, cluster.Spec{Nodes: 8, PerNode: 8}, "ring", taskgraph.Detailed), 0, scene.Options{Width: 1280, Height: 800}).Items {
		if strings.HasPrefix(it.ID, "link/") && strings.Contains(it.ID, "+") {
			t.Fatalf("8×8 at 1280×800 pairs links (%s); want each its own line", it.ID)
		}
	}
}
