//go:build !js

package training

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// spine16 is Mixtral with 16 experts, ep 16 at tp 2 over eight nodes of 4
// H100s on a fat tree of two leaves (four nodes each): the two
// expert-parallel groups (tp rank 0 and 1) each put 8 members on each
// leaf, so both cross leaf 0's uplink; %g is its oversubscription.
const spine16 = `model: {preset: mixtral-8x7b, layers: 2, seq_len: 4096, moe: {experts: 16}}
cluster: {gpu: h100-sxm, nodes: 8, gpus_per_node: 4, intra: nvlink4, inter: ib-ndr, network: fat-tree, oversubscription: %g}
parallel: {dp: 16, tp: 2, pp: 1, ep: 16, microbatches: 1}
fidelity: analytic
`

// TestSpineContention: under balanced routing each member sends Load/16
// copies to each other member of its group, Load = 2,048 tokens × top 2.
// Leaf 0 holds 16 GPUs, 8 of each group, each sending 8·Load/16 copies to
// its group's members on leaf 1: 8·Load copies over an uplink of
// 16·B/oversubscription. At oversubscription 4 that is 2·Load·bytes/B per
// all-to-all, more than a GPU's NIC needs (14 of its 16 members are on
// other nodes: 0.875·Load·bytes/B), so the spine sets the time; at 1
// (full bisection) it is 0.5·Load·bytes/B and the NIC does. Both
// fidelities; and the run's exposed EP time is 2 layers × 2 passes of it.
func TestSpineContention(t *testing.T) {
	for _, fid := range []string{"analytic", "detailed"} {
		for _, tc := range []struct {
			over, perBW float64 // oversubscription; the binding bytes over B, in Load·bytes
		}{{4, 2}, {1, 0.875}} {
			y := strings.Replace(fmt.Sprintf(spine16, tc.over), "fidelity: analytic", "fidelity: "+fid, 1)
			x, lay, tokens, _ := exchangeOf(t, y)
			if tokens != 2048 || len(x.gpus) != 16 {
				t.Fatalf("%v tokens a GPU over %d members; want 2048 over 16", tokens, len(x.gpus))
			}
			alpha, bw, err := x.paths.Cost(x.gpus[0], x.gpus[len(x.gpus)-1])
			if err != nil {
				t.Fatal(err)
			}
			load, bytes := tokens*2, 4096.0*2
			want := 2 * (alpha + units.Round(tc.perBW*load*bytes/float64(bw)))
			got := x.time(balancedLayer(lay, tokens), lay)
			if e := timeErr(got, want); e > 0.005 {
				t.Errorf("%s, oversubscription %g: all-to-alls %v, want %v (%.2f%% apart)", fid, tc.over, got, want, 100*e)
			}
			_, _, rec := moeRun(t, y)
			if e := timeErr(units.Round(rec.ExposedEP), 4*got); e > 0.005 {
				t.Errorf("%s, oversubscription %g: exposed EP %v, want 2 layers × 2 passes × %v", fid, tc.over, units.Round(rec.ExposedEP), got)
			}
		}
	}
}

// TestOversubscriptionRefused: cluster.oversubscription needs a fat tree
// and lies in 1..64.
func TestOversubscriptionRefused(t *testing.T) {
	for _, y := range []string{
		fmt.Sprintf(spine16, 0.5),
		strings.Replace(fmt.Sprintf(spine16, 2.0), "network: fat-tree", "network: rail-optimized", 1),
	} {
		if _, err := scenario.Parse([]byte(y)); err == nil || !strings.Contains(err.Error(), "cluster.oversubscription") {
			t.Errorf("%q: error %v, want one naming cluster.oversubscription", y, err)
		}
	}
}
