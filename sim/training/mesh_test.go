package training

import (
	"math"
	"testing"

	"paraplay/sim/scenario"
)

// TestMeshDataParallelRunsDirect: on one MI300X node, whose GPUs are
// joined pairwise, the gradients' all-reduce is the direct one, and the
// detailed run, every message on the mesh's cables, agrees with the
// analytic one, collective.DirectMeshPhases.
func TestMeshDataParallelRunsDirect(t *testing.T) {
	var got [2]float64
	for i, fid := range []string{"detailed", "analytic"} {
		s, err := scenario.Parse([]byte("fidelity: " + fid + "\nmodel: {preset: gpt3-1.3b}\ncluster: {gpu: mi300x, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8}\n"))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(tl.Collectives) == 0 {
			t.Fatalf("%s: no collectives", fid)
		}
		c := tl.Collectives[0]
		if c.Algorithm != "direct" {
			t.Errorf("%s: data-parallel %s runs %q, want direct", fid, c.Name, c.Algorithm)
		}
		got[i] = (c.End - c.Start).Seconds()
	}
	if rel := math.Abs(got[0]-got[1]) / got[1]; rel > 0.02 {
		t.Errorf("detailed %.4g s, analytic %.4g s: %.2f%% apart", got[0], got[1], 100*rel)
	}
}

// TestMultiNodeMeshGradientsUseEveryCable: data parallelism across MI300X
// nodes runs its gradient all-reduce on one channel per NIC, each channel
// on xGMI cables of its own (collective.MeshChannelRing); the detailed
// run agrees with collective.MeshChannelRingTime within 2%.
func TestMultiNodeMeshGradientsUseEveryCable(t *testing.T) {
	var got [2]float64
	for i, fid := range []string{"detailed", "analytic"} {
		s, err := scenario.Parse([]byte("fidelity: " + fid + "\nmodel: {preset: gpt3-1.3b}\ncluster: {gpu: mi300x, nodes: 2, gpus_per_node: 8, inter: ib-ndr}\nparallel: {dp: 16}\n"))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		c := tl.Collectives[len(tl.Collectives)-1]
		if c.Algorithm != "ring" || c.Channels != 8 {
			t.Fatalf("%s: gradients run %s on %d channels, want ring on 8", fid, c.Algorithm, c.Channels)
		}
		got[i] = (c.End - c.Start).Seconds()
	}
	if rel := math.Abs(got[0]-got[1]) / got[1]; rel > 0.02 {
		t.Errorf("detailed %.4g s, analytic %.4g s: %.2f%% apart", got[0], got[1], 100*rel)
	}
}
