package training

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
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
