//go:build !js

package training

import (
	"math"
	"slices"
	"testing"

	"paraplay/sim/scenario"
)

// TestTorusTraffic: the bytes chip 0 receives along each torus axis in
// its data-parallel collectives are the ring's 2(n−1)/n of each
// all-reduce's buffer, (n−1)/n of each gather's or reduce-scatter's, on
// the one axis its data group spans, moved by the mesh layout; over two
// slices the DCN ring adds 2(M−1)/(N·M) of each buffer.
func TestTorusTraffic(t *testing.T) {
	for _, c := range []struct {
		cluster, mesh string
		axis          int
		ici, dcn      float64 // per buffer byte of chip 0's collectives
	}{
		{"{gpu: tpu-v5e, topology: 16x2}", "{data: 2, model: 16, layout: xy}", 1, 1, 0},      // a line of 2: 2·1/2
		{"{gpu: tpu-v5p, topology: 4x4x8}", "{fsdp: 8, model: 16}", 2, 7.0 / 8, 0},           // gathers and reduce-scatters on the z ring of 8: 7/8
		{"{gpu: tpu-v5p, topology: 4x4x8}", "{data: 4, model: 32, layout: yzx}", 0, 1.5, 0},  // model on y and z, data on the x ring of 4
		{"{gpu: tpu-v5p, topology: 4x4x4, slices: 2}", "{data: 8, model: 16}", 2, 1.5, 0.25}, // z ring of 4: 2·3/4; DCN 2·1/(4·2)
	} {
		s, err := scenario.Parse([]byte("strategy: training\nfidelity: analytic\nmodel: {preset: megatron-7.5b}\ncluster: " + c.cluster +
			"\nparallel: {mesh: " + c.mesh + ", microbatches: 1, micro_batch_size: 1}"))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		var buf float64
		for _, col := range tl.Collectives {
			if col.Algorithm == "torus" && slices.Contains(col.GPUs, 0) {
				buf += float64(col.Bytes)
			}
		}
		ici, dcn, ok := TorusTraffic(s, tl)
		if !ok || buf == 0 {
			t.Fatalf("%s %s: no torus traffic (ok %v, %v B of buffers)", c.cluster, c.mesh, ok, buf)
		}
		for a := range ici {
			want := 0.0
			if a == c.axis {
				want = c.ici * buf
			}
			if math.Abs(ici[a]-want) > 1e-9*buf {
				t.Errorf("%s %s: axis %c carries %.0f B; want %.0f", c.cluster, c.mesh, "xyz"[a], ici[a], want)
			}
		}
		if math.Abs(dcn-c.dcn*buf) > 1e-9*buf {
			t.Errorf("%s %s: the DCN carries %.0f B; want %.0f", c.cluster, c.mesh, dcn, c.dcn*buf)
		}
	}
}
