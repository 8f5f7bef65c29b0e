//go:build !js

package training

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/operators"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// mixtralSplit is Mixtral 8x7B (4 layers) with ep 8 over two nodes of 4
// H100s, one microbatch of two sequences; %s is the network, %s the
// model.moe keys, %s more keys.
const mixtralSplit = `model: {preset: mixtral-8x7b, layers: 4, seq_len: 4096, moe: {%s}}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4, intra: nvlink4, inter: %s}
parallel: {dp: 8, tp: 1, pp: 1, ep: 8, microbatches: 1, micro_batch_size: 2}
fidelity: analytic
%s`

// TestTwoMicrobatchClosedForm: with the FLOP-count pricing (an explicit
// efficiency, so the halves' GEMMs lose nothing), balanced routing and
// the flat exchange across two nodes, one MoE layer's dispatch and
// combine are A = 2·(α + S/2·β_NIC) (half of a GPU's copies S leave
// through its NIC), the two halves' A' = 2·2·(α + S/4·β) = A + 2α, and
// each layer and pass exposes max(0, A' − C) of them, C the layer's
// compute (FLOPs over peak × efficiency). Without the overlap a run
// exposes 4 layers × 2 passes × A; with it, the iteration shortens by
// exactly what it stops exposing. On NDR InfiniBand the all-to-alls hide
// entirely; on 100 Gb Ethernet they outlast the forward's compute.
func TestTwoMicrobatchClosedForm(t *testing.T) {
	for _, net := range []string{"ib-ndr", "eth-100g"} {
		plainY := fmt.Sprintf(mixtralSplit, "", net, "training: {efficiency: 0.5}\n")
		_, plain, pr := moeRun(t, plainY)
		_, split, sr := moeRun(t, fmt.Sprintf(mixtralSplit, "overlap: two-microbatch", net, "training: {efficiency: 0.5}\n"))
		s, _ := scenario.Parse([]byte(plainY))
		tp, gpu, err := trainingTopology(s)
		if err != nil {
			t.Fatal(err)
		}
		alpha, bw, err := topo.NewPaths(tp).Cost(0, 4)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := s.Model.Resolve()
		m.Layers = 4
		const tokens, k = 2 * 4096.0, 2.0
		S := tokens * k * float64(m.Hidden) * 2
		a := 2 * (alpha + units.Round(S/2/float64(bw)))
		f := workload.LayerFLOPs(m, 2, 1, 1, workload.RecomputeNone).Total()
		cf := gpu.ComputeTime(f.Forward, 0.5)
		cb := gpu.ComputeTime(f.BackwardInput, 0.5) + gpu.ComputeTime(f.BackwardWeight, 0.5)
		a2 := a + 2*alpha
		wantPlain := 4 * 2 * a
		wantSplit := 4 * (max(0, a2-cf) + max(0, a2-cb))
		for _, c := range []struct {
			name      string
			got, want units.Time
		}{{"no overlap", units.Round(pr.ExposedEP), wantPlain}, {"two-microbatch", units.Round(sr.ExposedEP), wantSplit}} {
			if d := absTime(c.got - c.want); d > max(c.want/200, 2000) {
				t.Errorf("%s, %s: exposed EP %v, want %v (A = %v, A' = %v, C_F = %v, C_B = %v)", net, c.name, c.got, c.want, a, a2, cf, cb)
			}
		}
		saved := units.Round(pr.ExposedEP - sr.ExposedEP)
		if d := absTime(plain.Iteration - split.Iteration - saved); d > 2000 {
			t.Errorf("%s: iteration %v → %v, want shorter by the EP time no longer exposed, %v", net, plain.Iteration, split.Iteration, saved)
		}
	}
}

// TestTwoMicrobatchNeverSlower: priced by the operator lists, the halves'
// GEMMs at half the rows cost more than the whole's; the overlap run is
// never slower than the run without it by more than that split's cost
// (one layer's 2·C(b/2) − C(b), times 4 layers, forward and backward),
// and it exposes less EP time. Under a skewed router in detailed fidelity
// too.
func TestTwoMicrobatchNeverSlower(t *testing.T) {
	for _, tc := range []struct{ net, moe, fid string }{
		{"ib-ndr", "", ""},
		{"eth-100g", "", ""},
		{"ib-ndr", "routing: {skew: lognormal, cv: 0.5}, ", "detailed"},
	} {
		plainY := fmt.Sprintf(mixtralSplit, strings.TrimSuffix(tc.moe, ", "), tc.net, "")
		splitY := fmt.Sprintf(mixtralSplit, tc.moe+"overlap: two-microbatch", tc.net, "")
		if tc.fid != "" {
			plainY = strings.Replace(plainY, "fidelity: analytic", "fidelity: "+tc.fid, 1)
			splitY = strings.Replace(splitY, "fidelity: analytic", "fidelity: "+tc.fid, 1)
		}
		_, plain, pr := moeRun(t, plainY)
		_, split, sr := moeRun(t, splitY)
		s, _ := scenario.Parse([]byte(splitY))
		tr, err := newIteration(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		act, err := tr.activations(s.Model.Eager(), operators.DType(s.Training.Precision))
		if err != nil {
			t.Fatal(err)
		}
		full, half := tr.moeLayerTime(&act, 2), tr.moeLayerTime(&act, 1)
		var cost units.Time
		for i := range full {
			cost += 4 * (2*half[i] - full[i])
		}
		if cost <= 0 {
			t.Errorf("%s: the split costs %v; want GEMMs at half the rows to cost more", tc.net, cost)
		}
		if split.Iteration > plain.Iteration+cost {
			t.Errorf("%s %s: with the overlap %v, without %v; want no slower than by the split's %v", tc.net, tc.moe, split.Iteration, plain.Iteration, cost)
		}
		if sr.ExposedEP >= pr.ExposedEP {
			t.Errorf("%s %s: exposed EP %v with the overlap, %v without; want less", tc.net, tc.moe, sr.ExposedEP, pr.ExposedEP)
		}
	}
}

// TestTwoMicrobatchDeterministic: the same scenario and seed give
// byte-identical traces, under a skewed router on the links.
func TestTwoMicrobatchDeterministic(t *testing.T) {
	y := fmt.Sprintf(mixtralSplit, "routing: {skew: lognormal, cv: 0.5}, overlap: two-microbatch", "ib-ndr", "seed: 7\n")
	y = strings.Replace(y, "fidelity: analytic", "fidelity: detailed", 1)
	var out [2][]byte
	for i := range out {
		tl, _, _ := moeRun(t, y)
		var b bytes.Buffer
		if err := timeline.WriteJSON(tl, &b); err != nil {
			t.Fatal(err)
		}
		out[i] = b.Bytes()
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Error("two runs of one scenario and seed gave different traces")
	}
}

// TestTwoMicrobatchRefused: the overlap needs an even micro_batch_size, a
// run without a pipeline and a mixture of experts.
func TestTwoMicrobatchRefused(t *testing.T) {
	for _, tc := range []struct{ yaml, field string }{
		{strings.Replace(fmt.Sprintf(mixtralSplit, "overlap: two-microbatch", "ib-ndr", ""), "micro_batch_size: 2", "micro_batch_size: 1", 1), "model.moe.overlap"},
		{strings.Replace(fmt.Sprintf(mixtralSplit, "overlap: two-microbatch", "ib-ndr", ""), "dp: 8, tp: 1, pp: 1, ep: 8, microbatches: 1", "dp: 4, tp: 1, pp: 2, ep: 4, microbatches: 4", 1), "model.moe.overlap"},
		{fmt.Sprintf(mixtralSplit, "overlap: three-microbatch", "ib-ndr", ""), "model.moe.overlap"},
	} {
		_, err := scenario.Parse([]byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%q: error %v, want one naming %s", tc.yaml, err, tc.field)
		}
	}
}
