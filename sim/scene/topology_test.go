package scene_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/run"
	"paraplay/sim/scene"
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
	_, tl, err := run.MeasureCollective(tp, "all_reduce", algo, cfg, fidelity)
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
	return measure(t, tp, 4, 2, "ring", run.Detailed)
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
		{"nvswitch8_ring.svg", clusterRun(t, cluster.Spec{Nodes: 1, PerNode: 8}, "ring", run.Detailed), 0.3},
		{"rail2x4_hierarchical.svg", clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "hierarchical", run.Detailed), 0.45},
		{"fattree4x2_ring.svg", fatTree(t), 0.3},
		{"rail2x4_analytic.svg", clusterRun(t, cluster.Spec{Nodes: 2, PerNode: 4}, "ring", run.Analytic), 0.5},
	}
}

func at(tl *timeline.Timeline, frac float64) units.Time {
	return units.Time(frac * float64(tl.End))
}

func TestClusterGoldenSVG(t *testing.T) {
	update := flag.Lookup("update").Value.(flag.Getter).Get().(bool)
	for _, g := range clusterGoldens(t) {
		var buf bytes.Buffer
		if err := scene.WriteSVG(&buf, scene.Build(g.tl, at(g.tl, g.frac), scene.Options{})); err != nil {
			t.Fatalf("%s: WriteSVG: %v", g.file, err)
		}
		path := filepath.Join("testdata", g.file)
		if update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from the golden file; diff with go test -update && git diff", g.file)
		}
	}
}
