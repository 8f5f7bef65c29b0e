//go:build !js

package training

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"paraplay/sim/moe"
	"paraplay/sim/parallel"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

func moeRun(t testing.TB, yaml string) (*timeline.Timeline, timeline.Summary, MoE) {
	t.Helper()
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	tl := strategytest.MustRun(t, simulate, s)
	sum := tl.Summarize()
	rec, ok := sum.Extra["moe"].(MoE)
	if !ok {
		t.Fatalf("no moe record in %v", sum.Extra)
	}
	return tl, sum, rec
}

// mixtral8 is Mixtral 8x7B with one expert per GPU of a node of 8 H100s.
const mixtral8 = `model: {preset: mixtral-8x7b, seq_len: 4096}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}
parallel: {dp: 8, tp: 1, pp: 1, ep: 8, microbatches: 2}
fidelity: analytic
`

// TestMoEBalancedAllToAll: under balanced routing each forward's tail is
// its 32 layers' dispatch and combine, each the pairwise exchange's
// bytes (Thakur, Rabenseifner & Gropp 2005) posted at once, one latency:
// α + (n−1)/n·S·β with S the tokens × top_k × hidden × 2 bytes a GPU
// sends, on the group's path; no GPU waits for another.
func TestMoEBalancedAllToAll(t *testing.T) {
	tl, sum, rec := moeRun(t, mixtral8)
	s, _ := scenario.Parse([]byte(mixtral8))
	tp, _, err := trainingTopology(s)
	if err != nil {
		t.Fatal(err)
	}
	group := s.Parallel.Plan().ExpertGroup(0)
	a, bw, err := topo.NewPaths(tp).Bottleneck(group)
	if err != nil {
		t.Fatal(err)
	}
	const n, tokens, k, h = 8.0, 4096.0, 2.0, 4096.0
	S := tokens * k * h * 2
	one := a.Seconds() + (n-1)/n*S/float64(bw)
	want := units.Round(2 * 32 * one)
	var fwd []units.Time
	for _, sp := range tl.Spans {
		if sp.Kind == timeline.EPComm && sp.GPU == 3 && sp.Label == "F0" {
			fwd = append(fwd, sp.End-sp.Start)
		}
	}
	if len(fwd) != 1 || absTime(fwd[0]-want) > 32 {
		t.Errorf("forward's all-to-alls %v, want 2 × 32 layers × %v = %v", fwd, units.Round(one), want)
	}
	if rec.GPUMaxMean != 1 || rec.Dropped != 0 {
		t.Errorf("balanced: GPU load max/mean %v, %v dropped; want 1 and 0", rec.GPUMaxMean, rec.Dropped)
	}
	if got, wantCopies := rec.Copies, 8*2*tokens*k*32; got != wantCopies {
		t.Errorf("%v token copies, want 8 GPUs × 2 microbatches × 4096 tokens × top 2 × 32 layers = %v", got, wantCopies)
	}
	if sum.ExposedBy["ep"] <= 0 {
		t.Error("no exposed expert-parallel time")
	}
}

func absTime(t units.Time) units.Time { return max(t, -t) }

// TestMoESkewStraggler: with a lognormal router of cv 0.5 the iteration is
// longer than balanced, the GPU that computes longest is the one whose
// experts received the most token copies, the others wait for it inside
// the all-to-all, and its activations peak highest.
func TestMoESkewStraggler(t *testing.T) {
	_, bal, _ := moeRun(t, mixtral8)
	tl, skew, rec := moeRun(t, strings.Replace(mixtral8, "seq_len: 4096}", "seq_len: 4096, moe: {routing: {skew: lognormal, cv: 0.5}}}", 1))
	if skew.Iteration <= bal.Iteration {
		t.Errorf("skewed iteration %v, balanced %v: want it longer", skew.Iteration, bal.Iteration)
	}
	slowest := slices.IndexFunc(skew.GPUs, func(g timeline.GPUSummary) bool {
		return g.Compute == slices.MaxFunc(skew.GPUs, func(a, b timeline.GPUSummary) int { return int(a.Compute - b.Compute) }).Compute
	})
	if !slices.Contains(rec.BusiestGPUs, slowest) {
		t.Errorf("slowest GPU %d, but the hottest experts' GPUs are %v", slowest, rec.BusiestGPUs)
	}
	if skew.ExposedBy["ep"] <= bal.ExposedBy["ep"] {
		t.Errorf("exposed EP %v s skewed, %v s balanced: the others must wait for the hot GPU", skew.ExposedBy["ep"], bal.ExposedBy["ep"])
	}
	peak := func(s timeline.Summary, g int) units.Bytes { return s.GPUs[g].PeakMemory }
	if peak(skew, slowest) <= peak(bal, slowest) {
		t.Errorf("hot GPU %d peaks at %v skewed, %v balanced: dispatched rows must add memory", slowest, peak(skew, slowest), peak(bal, slowest))
	}
	if rec.GPUMaxMean <= 1.05 || rec.ExpertMaxMean <= rec.GPUMaxMean-1e-9 {
		t.Errorf("GPU load max/mean %.3f, expert %.3f: want skew, and experts at least as uneven as GPUs", rec.GPUMaxMean, rec.ExpertMaxMean)
	}
	if err := tl.Validate(); err != nil {
		t.Error(err)
	}
}

// TestMoECapacityDrops: a capacity factor of 1 under lognormal routing of
// cv 0.5 drops, averaged over seeds, the fraction E[(X − 1)⁺] of the
// copies (moe.DroppedLognormal: 18.7%) within 2 points, on Qwen3's 128
// experts; dropless drops none.
func TestMoECapacityDrops(t *testing.T) {
	const base = `model: {preset: qwen3-235b-a22b, layers: 4, moe: {capacity_factor: %s, routing: {skew: lognormal, cv: 0.5}}}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}
parallel: {dp: 8, tp: 1, pp: 1, ep: 8, microbatches: 1}
fidelity: analytic
seed: %d
`
	var got float64
	const seeds = 20
	for seed := 1; seed <= seeds; seed++ {
		_, _, rec := moeRun(t, fmt.Sprintf(base, "1", seed))
		got += rec.Dropped / rec.Copies / seeds
	}
	want := moe.DroppedLognormal(0.5, 1)
	if math.Abs(got-want) > 0.02 {
		t.Errorf("capacity factor 1: dropped %.4f of the copies over %d seeds, want %.4f ± 0.02", got, seeds, want)
	}
	t.Logf("dropped %.4f, expected %.4f", got, want)
	if _, _, rec := moeRun(t, fmt.Sprintf(base, "0", 1)); rec.Dropped != 0 {
		t.Errorf("dropless dropped %v copies", rec.Dropped)
	}
}

// TestMoERejectsExpertLayouts: expert parallelism larger than the experts,
// or not dividing them, and etp that does not split tp, name their key.
func TestMoERejectsExpertLayouts(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"model: {preset: mixtral-8x7b}\ncluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 8}\nparallel: {dp: 16, ep: 16}\n",
			"parallel.ep: is 16 but model mixtral-8x7b has 8 experts"},
		{"model: {preset: deepseek-v3}\ncluster: {gpu: h100-sxm, nodes: 3, gpus_per_node: 8}\nparallel: {dp: 24, ep: 24}\n",
			"parallel.ep: is 24, which does not divide model deepseek-v3's 256 experts"},
		{"model: {preset: mixtral-8x7b}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 2, tp: 4, etp: 3}\n",
			"parallel.etp: is 3"},
		{"model: {preset: llama3-8b, moe: {routing: {skew: zipf, s: 1}}}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8}\n",
			"model.moe.routing: is set but model llama3-8b has no experts"},
		{"model: {preset: mixtral-8x7b, moe: {redundant: 3}}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8, ep: 2}\n",
			"model.moe.redundant: is 3"},
		{"model: {preset: deepseek-v3, attention: eager}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\nparallel: {dp: 8, ep: 8}\n",
			"model.attention: is eager"},
	} {
		_, err := scenario.Parse([]byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.yaml, err, c.want)
		}
	}
}

// TestExpertTensorParallel: with etp < tp an expert-parallel group takes
// tensor-parallel ranks too, and etp 1 leaves every expert whole.
func TestExpertTensorParallel(t *testing.T) {
	p := parallel.Plan{DP: 2, TP: 4, PP: 1, CP: 1, EP: 8, ETP: 1}
	if _, err := p.Check(8, 8); err != nil {
		t.Fatal(err)
	}
	_, sum, rec := moeRun(t, "model: {preset: mixtral-8x7b, seq_len: 4096}\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\n"+
		"parallel: {dp: 2, tp: 4, ep: 8, etp: 1, sequence_parallel: true, microbatches: 2}\nfidelity: analytic\n")
	if rec.EP != 8 || rec.ETP != 1 || sum.Iteration <= 0 {
		t.Errorf("ep %d etp %d iteration %v", rec.EP, rec.ETP, sum.Iteration)
	}
}

// TestDeepSeekV3At2048 runs DeepSeek-V3 on 2,048 H800s (pp 16 × dp 128,
// ep 64 over 8 nodes) at analytic fidelity, which must take under 10 s.
func TestDeepSeekV3At2048(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2,048-GPU run")
	}
	start := time.Now()
	_, sum, rec := moeRun(t, deepSeekV3At2048)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v, want under 10 s", d)
	}
	if rec.Nodes != 8 || math.Abs(rec.NodesPerToken-4) > 1e-6 {
		t.Errorf("an EP group spans %d nodes, %v per token: want 8 and DeepSeek-V3's 4", rec.Nodes, rec.NodesPerToken)
	}
	t.Logf("iteration %v, MFU %.1f%%, exposed EP %.3g s, in %v", sum.Iteration, 100*sum.MFU, rec.ExposedEP, time.Since(start))
}

const deepSeekV3At2048 = `model: {preset: deepseek-v3}
cluster: {gpu: h800, nodes: 256, gpus_per_node: 8}
parallel: {dp: 128, tp: 1, pp: 16, ep: 64, zero: 1, schedule: 1f1b, microbatches: 32, order: "tp,cp,dp,pp"}
fidelity: analytic
`

func BenchmarkDeepSeekV3On2048(b *testing.B) {
	s, err := scenario.Parse([]byte(deepSeekV3At2048))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := SimulateMirrored(s); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDualPipeVHidesAllToAll: DualPipeV's overlapped F&B pairs hide their
// all-to-alls under the other half's compute, so the same run exposes
// less EP time than under 1F1B. Balanced and compute-bound, every paired
// op hides all of its all-to-alls, and device d of p exposes those of its
// 2(2m − pairs_d) unpaired F's and B's, pairs_d = 2(m − 2p + d + 1) +
// (p − d − 1) (phases 4 and 5 of DualPipeV), each a chunk's layers'
// dispatch and combine: half a 1F1B stage's, whose 2m ops expose all.
func TestDualPipeVHidesAllToAll(t *testing.T) {
	const run = `model: {preset: mixtral-8x7b, layers: 8, seq_len: 4096}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}
parallel: {dp: 4, tp: 1, pp: 2, ep: 4, schedule: 1f1b, microbatches: 8}
fidelity: analytic
`
	const p, m = 2, 8
	for _, fid := range []string{"analytic", "detailed"} {
		yaml := strings.Replace(run, "analytic", fid, 1)
		_, one, _ := moeRun(t, yaml)
		_, dual, _ := moeRun(t, strings.Replace(yaml, "1f1b", "dualpipev", 1))
		if dual.ExposedBy["ep"] >= one.ExposedBy["ep"] {
			t.Errorf("%s: dualpipev exposes %v of EP time, 1f1b %v: want less", fid, dual.ExposedBy["ep"], one.ExposedBy["ep"])
		}
		perOp := one.ExposedBy["ep"] / (2 * m) / 2 // a 1F1B op's, halved to a chunk's
		var unpaired float64
		for d := range p {
			unpaired += float64(2 * (2*m - (2*(m-2*p+d+1) + (p - d - 1))))
		}
		want := unpaired / p * perOp
		if got := dual.ExposedBy["ep"]; math.Abs(got-want) > 1e-6*want {
			t.Errorf("%s: dualpipev exposes %.6g s of EP time, want %.6g s (%.0f unpaired ops a device of %.4g s)", fid, got, want, unpaired/p, perOp)
		}
	}
}

// TestDualPipeVDrawsHiddenAllToAll: each overlapped op's hidden share of
// the other half's all-to-alls is recorded as an all-to-all of its expert
// group (purpose ep, algorithm "hidden") that starts with the op's compute
// and ends within it, so the strip draws it under the compute; 1F1B hides
// nothing and records none.
func TestDualPipeVDrawsHiddenAllToAll(t *testing.T) {
	const run = `model: {preset: mixtral-8x7b, layers: 8, seq_len: 4096}
cluster: {gpu: h100-sxm, nodes: 2, gpus_per_node: 4}
parallel: {dp: 4, tp: 1, pp: 2, ep: 4, schedule: dualpipev, microbatches: 8, order: "tp,cp,pp,dp"}
`
	hidden := func(tl *timeline.Timeline) []timeline.Collective {
		var out []timeline.Collective
		for _, c := range tl.Collectives {
			if c.Algorithm == "hidden" {
				out = append(out, c)
			}
		}
		return out
	}
	tl, _, _ := moeRun(t, run)
	hs := hidden(tl)
	if len(hs) == 0 {
		t.Fatal("dualpipev: no hidden all-to-all recorded")
	}
	for _, c := range hs {
		var under bool
		for _, sp := range tl.Spans {
			under = under || sp.GPU == c.GPUs[0] && (sp.Kind == timeline.Forward || sp.Kind == timeline.Backward) &&
				sp.Start == c.Start && c.End <= sp.End
		}
		if !under || c.Purpose != "ep" || c.Ranks != 4 || c.Bytes <= 0 {
			t.Fatalf("hidden all-to-all %+v: want an ep all-to-all of 4 GPUs inside a compute span of its first GPU", c)
		}
	}
	one, _, _ := moeRun(t, strings.Replace(run, "dualpipev", "1f1b", 1))
	if n := len(hidden(one)); n != 0 {
		t.Errorf("1f1b records %d hidden all-to-alls, want none", n)
	}
}
