//go:build !js

package training

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/moe"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// exchangeOf is the first expert-parallel group's exchange of the scenario
// yaml, its layout and the tokens a GPU routes per microbatch.
func exchangeOf(t *testing.T, yaml string) (*exchange, moe.Layout, float64, scenario.Scenario) {
	t.Helper()
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := newIteration(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := tr.par
	tokens := float64(p.MicroBatchSize) * float64(tr.model.SeqLen) / float64(p.CP*p.TP)
	return tr.exchange(), tr.expertLayout(), tokens, s
}

func timeErr(got, want units.Time) float64 {
	return math.Abs(float64(got-want)) / float64(want)
}

// TestExchangeClosedFormMatchesLinks: on one switch (a node of 8 H100s
// around its NVSwitch) the closed form of the all-to-all equals its flows
// played on the links within 0.5%, balanced and under a lognormal
// router of cv 0.5, flat and hierarchical, BF16 and FP8.
func TestExchangeClosedFormMatchesLinks(t *testing.T) {
	for _, tc := range []struct{ name, moe string }{
		{"balanced", ""},
		{"lognormal", ", moe: {routing: {skew: lognormal, cv: 0.5}}"},
		{"hierarchical fp8 zipf", ", moe: {all_to_all: hierarchical, dispatch_precision: fp8, routing: {skew: zipf, s: 1.2}}"},
	} {
		y := strings.Replace(mixtral8, "seq_len: 4096}", "seq_len: 4096"+tc.moe+"}", 1)
		det, lay, tokens, s := exchangeOf(t, strings.Replace(y, "fidelity: analytic", "fidelity: detailed", 1))
		ana, _, _, _ := exchangeOf(t, y)
		if det.links == nil || ana.links != nil {
			t.Fatalf("%s: detailed exchange without links, or analytic with", tc.name)
		}
		for layer := range 4 {
			l := moe.Route(lay, s.Model.MoE.Routing, s.Seed, 0, layer, tokens)
			got, want := det.time(l, lay), ana.time(l, lay)
			if e := timeErr(got, want); e > 0.005 {
				t.Errorf("%s layer %d: on the links %v, closed form %v (%.2f%% apart; want ≤ 0.5%%)", tc.name, layer, got, want, 100*e)
			}
		}
	}
}

// TestExchangeHotExpertBottleneck: with one expert 4 times as popular as
// each of the other 7 (one per GPU), the all-to-all lasts as long as the
// hot GPU's port takes to receive its copies, (n−1)/n of its load, and
// the others' ports idle part of the time: the time played on the links
// is α + (n−1)/n·Load_hot·(bytes a copy)/B for the dispatch and again for
// the combine, 4·8/11 of the balanced exchange's streaming time.
func TestExchangeHotExpertBottleneck(t *testing.T) {
	y := strings.Replace(mixtral8, "fidelity: analytic", "fidelity: detailed", 1)
	hot := strings.Replace(y, "seq_len: 4096}", "seq_len: 4096, moe: {routing: {histogram: [4,1,1,1,1,1,1,1]}}}", 1)
	x, lay, tokens, s := exchangeOf(t, hot)
	l := moe.Route(lay, s.Model.MoE.Routing, s.Seed, 0, 0, tokens)
	n := float64(len(x.gpus))
	alpha, b, _ := x.paths.Cost(x.gpus[0], x.gpus[1])
	bw := float64(b)
	want := 2*alpha + units.Round(2*(n-1)/n*l.Load[0]*x.perCopy/bw)
	got := x.time(l, lay)
	if e := timeErr(got, want); e > 0.005 {
		t.Errorf("hot expert: all-to-all on the links %v, want the hot GPU's port %v (%.2f%% apart)", got, want, 100*e)
	}
	bal, _, _, _ := exchangeOf(t, y)
	bt := bal.time(balancedLayer(lay, tokens), lay)
	ratio := float64(got-2*alpha) / float64(bt-2*alpha)
	if math.Abs(ratio-l.Load[0]/tokens/2) > 0.01 {
		t.Errorf("hot/balanced streaming time %.3f, want Load_hot/Load_mean = %.3f", ratio, l.Load[0]/tokens/2)
	}
}

// TestExchangeFP8Dispatch: FP8 dispatch sends a byte per element and an
// FP32 scale per 128 (DeepSeek-V3 §3.3), 4,224 bytes a copy of Mixtral's
// 4,096 against BF16's 8,192, the combine stays BF16: the balanced
// exchange is 2α + (n−1)/n·S·(4,224 + 8,192)/8,192·β.
func TestExchangeFP8Dispatch(t *testing.T) {
	y := strings.Replace(mixtral8, "seq_len: 4096}", "seq_len: 4096, moe: {dispatch_precision: fp8}}", 1)
	x, lay, tokens, _ := exchangeOf(t, y)
	if x.dispatch != 4224 || x.perCopy != 8192 {
		t.Fatalf("bytes a copy: dispatch %v, combine %v; want 4224 and 8192", x.dispatch, x.perCopy)
	}
	const n = 8.0
	S := tokens * 2 * 8192
	alpha, bw, _ := x.paths.Cost(x.gpus[0], x.gpus[1])
	want := 2*alpha + units.Round((n-1)/n*S*(4224+8192)/8192/float64(bw))
	if got := x.time(balancedLayer(lay, tokens), lay); timeErr(got, want) > 1e-5 {
		t.Errorf("FP8 dispatch + BF16 combine %v, want %v", got, want)
	}
}

// deepseekSmall is a DeepSeek-V3-like mixture on 4 nodes of 8 H100s:
// 64 experts, top 8 from 2 of 8 groups (each group a node of 8 GPUs),
// expert parallelism over all 32 GPUs.
const deepseekSmall = `model: {preset: mixtral-8x7b, seq_len: 4096, layers: 4, moe: {experts: 64, top_k: 8, expert_ffn_hidden: 1024, router: group-limited, groups: 4, top_groups: 2}}
cluster: {gpu: h100-sxm, nodes: 4, gpus_per_node: 8}
parallel: {dp: 32, tp: 1, pp: 1, ep: 32, microbatches: 1}
fidelity: detailed
`

// TestExchangeHierarchical: across nodes, DeepEP's hierarchical exchange
// sends a token over the network once per destination node (at most 2
// here), not once per copy (8), so it beats the flat exchange on the
// links; and the closed form, which adds up each port alone, is within
// 10% of the links (the spine of the rail-optimized network is not the
// bottleneck).
func TestExchangeHierarchical(t *testing.T) {
	flat, lay, tokens, _ := exchangeOf(t, deepseekSmall)
	hier, _, _, _ := exchangeOf(t, strings.Replace(deepseekSmall, "top_groups: 2}", "top_groups: 2, all_to_all: hierarchical}", 1))
	l := balancedLayer(lay, tokens)
	f, h := flat.time(l, lay), hier.time(l, lay)
	if h >= f {
		t.Errorf("hierarchical %v, flat %v: want the hierarchical faster", h, f)
	}
	for _, x := range []*exchange{flat, hier} {
		links := x.time(l, lay)
		x.links = nil
		if cf := x.time(l, lay); timeErr(cf, links) > 0.10 {
			t.Errorf("hierarchical %v: closed form %v, links %v", x.hier, cf, links)
		}
	}
	t.Logf("EP 32 on 4 nodes, one layer: flat %v, hierarchical %v", f, h)
}

// TestExchangeKeysRefused: an unknown all-to-all or dispatch precision,
// and either on a dense model, are refused naming the key.
func TestExchangeKeysRefused(t *testing.T) {
	for _, tc := range []struct{ moe, model, field string }{
		{"all_to_all: ring", "mixtral-8x7b", "model.moe.all_to_all"},
		{"dispatch_precision: fp4", "mixtral-8x7b", "model.moe.dispatch_precision"},
		{"dispatch_precision: fp8", "llama3-8b", "model.moe.all_to_all"},
	} {
		y := strings.Replace(mixtral8, "preset: mixtral-8x7b, seq_len: 4096}", "preset: "+tc.model+", seq_len: 4096, moe: {"+tc.moe+"}}", 1)
		if tc.model != "mixtral-8x7b" {
			y = strings.Replace(y, "ep: 8", "ep: 1", 1)
		}
		_, err := scenario.Parse([]byte(y))
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s on %s: error %v, want one naming %s", tc.moe, tc.model, err, tc.field)
		}
	}
}
