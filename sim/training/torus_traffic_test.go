//go:build !js

package training

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// TestTorusTraffic: the bytes chip 0 receives along each torus axis in
// its data-parallel collectives are the ring's 2(n−1)/n of each
// all-reduce's buffer, (n−1)/n of each gather's or reduce-scatter's, on
// the one axis its data group spans, moved by the mesh layout; over two
// slices the DCN ring adds 2(M−1)/(N·M) of each all-reduce's buffer and
// (M−1)/(N·M) of each hierarchical reduce-scatter's or gather's.
func TestTorusTraffic(t *testing.T) {
	for _, c := range []struct {
		cluster, mesh string
		axis          int
		ici, dcn      float64 // per buffer byte of chip 0's collectives
	}{
		{"{gpu: tpu-v5e, topology: 16x2}", "{data: 2, model: 16, layout: xy}", 1, 1, 0},                 // a line of 2: 2·1/2
		{"{gpu: tpu-v5p, topology: 4x4x8}", "{fsdp: 8, model: 16}", 2, 7.0 / 8, 0},                      // gathers and reduce-scatters on the z ring of 8: 7/8
		{"{gpu: tpu-v5p, topology: 4x4x8}", "{data: 4, model: 32, layout: yzx}", 0, 1.5, 0},             // model on y and z, data on the x ring of 4
		{"{gpu: tpu-v5p, topology: 4x4x4, slices: 2}", "{data: 8, model: 16}", 2, 1.5, 0.25},            // z ring of 4: 2·3/4; DCN 2·1/(4·2)
		{"{gpu: tpu-v5p, topology: 4x4x4, slices: 2}", "{data: 2, fsdp: 4, model: 16}", 2, 0.75, 0.125}, // hierarchical RS and AG: z ring 3/4; DCN 1/(4·2)
	} {
		s, tl := textRun(t, "strategy: training\nfidelity: analytic\nmodel: {preset: megatron-7.5b}\ncluster: "+c.cluster+
			"\nparallel: {mesh: "+c.mesh+", microbatches: 1, micro_batch_size: 1}")
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

// TestTorusMeshTraffic: the bytes chip 0 receives a step in its
// tensor-parallel all-reduces and ring attention's key/value blocks, per
// torus axis, against their closed forms. The model (2 layers, h 512,
// 16 heads of 32, no grouped keys, s 512) at b 1 and 2 microbatches: an
// all-reduce carries S = (s/cp)·h·2 B, two a layer and pass, and moves
// 2(n−1)/n·S along a ring of n (a 4×4 box: 15/16·S along each axis); a
// K/V block is 2·(s/cp)·h/tp·2 B, cp−1 of them a layer forward, twice
// that backward, once more in a recomputed forward.
func TestTorusMeshTraffic(t *testing.T) {
	const h, seq, layers, mb = 512.0, 512.0, 2.0, 2.0
	for _, c := range []struct {
		cluster, mesh, recompute string
		model, seq               [3]float64
	}{
		{"{gpu: tpu-v5p, topology: 4x4x8}", "{fsdp: 8, seq: 4, model: 4}", "none", // model on the x ring, seq on y
			[3]float64{2 * 3.0 / 4 * (seq / 4 * h * 2) * mb * 2 * 2 * layers}, [3]float64{0, 3 * (2 * seq / 4 * h / 4 * 2) * mb * layers * 3}},
		{"{gpu: tpu-v5p, topology: 4x4x8}", "{fsdp: 8, seq: 4, model: 4}", "full", // a recomputed forward: 3 passes, 4 K/V rounds
			[3]float64{2 * 3.0 / 4 * (seq / 4 * h * 2) * mb * 3 * 2 * layers}, [3]float64{0, 3 * (2 * seq / 4 * h / 4 * 2) * mb * layers * 4}},
		{"{gpu: tpu-v5p, topology: 4x4x4}", "{data: 4, model: 16}", "none", // model on an x-y box of 4×4
			[3]float64{15.0 / 16 * (seq * h * 2) * mb * 2 * 2 * layers, 15.0 / 16 * (seq * h * 2) * mb * 2 * 2 * layers}, [3]float64{}},
		{"{gpu: tpu-v5p, topology: 4x4x4, slices: 2}", "{data: 2, fsdp: 8, seq: 2, model: 4}", "none", // seq a line of 2 along y
			[3]float64{2 * 3.0 / 4 * (seq / 2 * h * 2) * mb * 2 * 2 * layers}, [3]float64{0, 1 * (2 * seq / 2 * h / 4 * 2) * mb * layers * 3}},
	} {
		s, err := scenario.Parse([]byte("strategy: training\nfidelity: analytic\nmodel: {layers: 2, hidden: 512, heads: 16, ffn_hidden: 2048, vocab: 1024, seq_len: 512}\ncluster: " +
			c.cluster + "\nparallel: {mesh: " + c.mesh + ", microbatches: 2, micro_batch_size: 1, recompute: " + c.recompute + "}"))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := TorusMeshTraffic(s, tl)
		if !ok {
			t.Fatalf("%s %s: no traffic", c.cluster, c.mesh)
		}
		for a := range 3 {
			for _, k := range []struct {
				kind      string
				got, want float64
			}{{"model", got.Model.ICI[a], c.model[a]}, {"seq", got.Seq.ICI[a], c.seq[a]}} {
				if math.Abs(k.got-k.want) > 1e-9*max(k.want, 1) {
					t.Errorf("%s %s recompute %s: %s axis %c carries %.0f B; want %.0f", c.cluster, c.mesh, c.recompute, k.kind, "xyz"[a], k.got, k.want)
				}
			}
		}
		if got.Model.DCN != 0 || got.Seq.DCN != 0 {
			t.Errorf("%s %s: model and seq cross the DCN (%.0f, %.0f B); want neither", c.cluster, c.mesh, got.Model.DCN, got.Seq.DCN)
		}
	}
}

// TestTorusTrafficCaption: a MaxText-style mesh over two slices (the
// testdata scenario paraplay run prints the traffic table of) says in
// its caption what each mesh axis carries: the data-parallel collectives
// (with the DCN), the model axis's all-reduces and the seq axis's keys and
// values, each along the torus axes it takes.
func TestTorusTrafficCaption(t *testing.T) {
	s, tl, sum := bookRun(t, "tpu-v5p-two-slices-maxtext.yaml")
	parts, err := Strategy{}.Caption(s, tl, sum)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, p := range parts {
		text += p.Text + "\n"
	}
	for _, want := range []string{"its data-parallel torus collectives x {} y {} z {}, DCN {} a step",
		"its tensor-parallel all-reduces (model axis) x {} y {} z {}, DCN {} a step", "ring attention's keys and values (seq axis) x {}"} {
		if !strings.Contains(text, want) {
			t.Errorf("caption lacks %q:\n%s", want, text)
		}
	}
}

// TestTorusTrafficZeROGroup: with FSDP inside each slice
// (parallel.zero_group) the gradient shards are all-reduced across the two
// slices by a ring of one chip a slice, every byte of it over the DCN: a
// ring of 2 brings each chip 2·(2−1)/2 = 1 buffer.
func TestTorusTrafficZeROGroup(t *testing.T) {
	s, tl := textRun(t, "strategy: training\nfidelity: analytic\nmodel: {layers: 2, hidden: 512, heads: 16, ffn_hidden: 2048, vocab: 1024, seq_len: 512}"+
		"\ncluster: {gpu: tpu-v5p, topology: 4x4x4, slices: 2}\nparallel: {mesh: {data: 2, fsdp: 4, model: 16}, microbatches: 1, micro_batch_size: 1, zero_group: 4}")
	var want float64
	for _, c := range tl.Collectives {
		if c.Algorithm == "ring" && slices.Contains(c.GPUs, 0) {
			if len(c.GPUs) != 2 || c.GPUs[1] < 64 {
				t.Fatalf("ring over %v; want chip 0 and its peer in the other slice", c.GPUs)
			}
			want += float64(c.Bytes)
		}
	}
	_, dcn, ok := TorusTraffic(s, tl)
	if !ok || want == 0 || math.Abs(dcn-want) > 1e-9*want {
		t.Errorf("the DCN carries %.0f B (ok %v); want %.0f", dcn, ok, want)
	}
}

// TestTorusTrafficArticle holds the figures tpu-pods.md quotes for its
// two-slice scenario ('Mesh axes on the torus'): GiB a step chip 0
// receives by mesh axis, as paraplay run prints them (three decimals), and
// the MFU, with FSDP across the slices and with parallel.zero_group 8.
func TestTorusTrafficArticle(t *testing.T) {
	data, err := os.ReadFile("testdata/tpu-v5p-two-slices-maxtext.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		extra                                   string
		dataY, dataZ, dcn, modelX, seqY, mfuPct float64
	}{
		{"", 1.578, 5.317, 0.292, 1.500, 0.281, 30.3},
		{"zero_group: 8, ", 1.578, 5.317, 0.117, 1.500, 0.281, 50.6},
	} {
		text := strings.Replace(string(data), "parallel: {", "parallel: {"+c.extra, 1)
		s, tl := textRun(t, text)
		mt, _ := TorusMeshTraffic(s, tl)
		gib := func(b float64) float64 { return math.Round(b/(1<<30)*1000) / 1000 }
		mfu := math.Round(tl.Summarize().MFU*1000) / 10
		got := [6]float64{gib(mt.Data.ICI[1]), gib(mt.Data.ICI[2]), gib(mt.Data.DCN), gib(mt.Model.ICI[0]), gib(mt.Seq.ICI[1]), mfu}
		want := [6]float64{c.dataY, c.dataZ, c.dcn, c.modelX, c.seqY, c.mfuPct}
		if got != want {
			t.Errorf("%q: data y, z, DCN, model x, seq y (GiB), MFU (%%) %v; the article says %v", c.extra, got, want)
		}
	}
}
