package training

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// TestTPUMesh: a training run on a TPU v5p slice that names its mesh as
// JAX users do runs, its plan the mesh's (dp = data × fsdp, tp = model,
// cp = seq); a mesh that does not fit the slice is refused naming the
// field.
func TestTPUMesh(t *testing.T) {
	const slice = "strategy: training\nfidelity: analytic\nmodel: {preset: llama3-8b}\ncluster: {gpu: tpu-v5p, topology: 4x4x4}\n"
	s, err := scenario.Parse([]byte(slice + "parallel: {mesh: {data: 8, seq: 2, model: 4}, microbatches: 1, micro_batch_size: 1}"))
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Parallel; p.DP != 8 || p.TP != 4 || p.CP != 2 || p.PP != 1 {
		t.Errorf("mesh {data 8, seq 2, model 4} gave dp %d tp %d cp %d pp %d; want 8, 4, 2, 1", p.DP, p.TP, p.CP, p.PP)
	}
	tl, err := Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ mesh, field string }{
		{"{data: 16, model: 8}", "parallel.mesh"},        // 128 chips on a slice of 64
		{"{data: 1, model: 128}", "parallel.mesh.model"}, // an axis larger than the slice
		{"{data: 16, model: 4}\n  dp: 8", "parallel.mesh"},
	} {
		_, err := scenario.Parse([]byte(slice + "parallel:\n  mesh: " + c.mesh))
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("mesh %s: error %v; want one naming %s", c.mesh, err, c.field)
		}
	}
}

// TestTPUMeshLayout: parallel.mesh.layout says which torus axes the mesh
// fills, and a sensible one wins. A model axis on a whole axis that wraps
// (v5e's x of 16; v5p's x of 4 on a 4x4x8 slice) runs its collectives on
// bidirectional rings; laid on a block of a longer axis or across two
// short ones without wraparound, the same mesh is slower. A layout that is
// no order of x, y and z is refused naming the field.
func TestTPUMeshLayout(t *testing.T) {
	run := func(topology, mesh, layout string) units.Time {
		t.Helper()
		s, err := scenario.Parse([]byte("strategy: training\nfidelity: analytic\nmodel: {preset: megatron-7.5b}\ncluster: {gpu: " + topology +
			"}\nparallel: {mesh: {" + mesh + ", layout: " + layout + "}, microbatches: 1, micro_batch_size: 1}"))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		return tl.Summarize().Iteration
	}
	for _, c := range []struct{ topology, mesh, good, bad string }{
		{"tpu-v5e, topology: 16x2", "data: 2, model: 16", "xy", "yx"},
		{"tpu-v5p, topology: 4x4x8", "fsdp: 32, model: 4", "xyz", "zxy"},
	} {
		good, bad := run(c.topology, c.mesh, c.good), run(c.topology, c.mesh, c.bad)
		if good >= bad {
			t.Errorf("%s, mesh {%s}: layout %s %v, %s %v; want %s faster", c.topology, c.mesh, c.good, good, c.bad, bad, c.good)
		}
		t.Logf("%s, mesh {%s}: layout %s %v, %s %v (%.1f%% slower)", c.topology, c.mesh, c.good, good, c.bad, bad, 100*(float64(bad)/float64(good)-1))
	}
	s, err := scenario.Parse([]byte("strategy: training\nmodel: {preset: llama3-8b}\ncluster: {gpu: tpu-v5p, topology: 4x4x4}\nparallel: {mesh: {data: 16, model: 4, layout: zx}}"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.FromQuery(s.Query())
	if err != nil || back.Parallel.Mesh.Layout != "zx" {
		t.Errorf("layout zx through the URL: %q, %v; want zx", back.Parallel.Mesh.Layout, err)
	}
	if o, _ := s.Parallel.Mesh.Order(); o != [3]int{2, 0, 1} {
		t.Errorf("layout zx: order %v; want z, x, then y", o)
	}
	for _, layout := range []string{"xx", "xw", "xyzx"} {
		_, err := scenario.Parse([]byte("strategy: training\nmodel: {preset: llama3-8b}\ncluster: {gpu: tpu-v5p, topology: 4x4x4}\nparallel: {mesh: {data: 16, model: 4, layout: " + layout + "}}"))
		if err == nil || !strings.Contains(err.Error(), "parallel.mesh.layout") {
			t.Errorf("layout %s: error %v; want one naming parallel.mesh.layout", layout, err)
		}
	}
}
