package partitioned

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/training"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

const gpt = `strategy: partitioned
model: {preset: gpt3-1.3b}
cluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}
parallel: {dp: 8, microbatches: 2, micro_batch_size: 2}
partitioned: {parts: 4, pre_steps: 3, full_steps: 2}
`

func parse(t *testing.T, yaml string) scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSquareLaw is the paper's square law in the transformer's terms: a
// layer's linear FLOPs (its GEMMs, workload.LayerOps.Linear) at width
// h/k, with h/k's share of heads and feed-forward width, are exactly 1/k²
// of the full layer's, for GPT's and Llama's layers.
func TestSquareLaw(t *testing.T) {
	for _, preset := range []string{"gpt3-1.3b", "llama3-8b"} {
		m, err := (scenario.Model{Preset: preset}).Resolve()
		if err != nil {
			t.Fatal(err)
		}
		full := workload.LayerFLOPs(m, 1, 1, 1, workload.RecomputeNone).Linear().Model()
		for _, k := range []int{2, 4, 8} {
			sub := m
			sub.Hidden, sub.Heads, sub.KVHeads, sub.FFNHidden = m.Hidden/k, m.Heads/k, m.KVHeadCount()/k, m.FFNWidth()/k
			got := workload.LayerFLOPs(sub, 1, 1, 1, workload.RecomputeNone).Linear().Model()
			if want := full / float64(k*k); math.Abs(got-want) > 1e-9*want {
				t.Errorf("%s, k = %d: a sub-model layer's linear FLOPs %g, want (w/k)²: %g", preset, k, got, want)
			}
		}
	}
}

// TestRunIsItsPhases: the run is pre_steps iterations of a sub-model,
// each simulated on its own by package training on dp/k GPUs, then the
// merge, then full_steps iterations of the full model on all of them;
// and the merge equals an all-gather of every sub-model's bf16 weights
// over the eight GPUs as package nccltest's analytic run times it.
func TestRunIsItsPhases(t *testing.T) {
	s := parse(t, gpt)
	tl := strategytest.MustRun(t, Simulate, s)
	r := tl.Extra[Name].(*Record)
	sub, full, err := phases(s)
	if err != nil {
		t.Fatal(err)
	}
	t1 := strategytest.MustRun(t, training.Simulate, sub)
	t3 := strategytest.MustRun(t, training.Simulate, full)
	if want := 3*t1.End + r.Merge + 2*t3.End; tl.End != want {
		t.Errorf("run %v, want 3·%v + %v + 2·%v = %v", tl.End, t1.End, r.Merge, t3.End, want)
	}
	if len(t1.GPUs) != 2 {
		t.Errorf("a sub-model trains on %d GPUs, want dp/k = 2", len(t1.GPUs))
	}
	ag := parse(t, "strategy: collective\ncluster: {gpu: h100-sxm, nodes: 1, gpus_per_node: 8}\n"+
		"collective: {op: all_gather, algorithm: ring, size: "+r.MergeBytes.String()+"}\n")
	want := strategytest.MustRun(t, nccltest.Simulate, ag).End
	if d := math.Abs(float64(r.Merge-want)) / float64(want); d > 0.01 {
		t.Errorf("merge %v, the all-gather of %v over 8 GPUs %v: %.2g apart", r.Merge, r.MergeBytes, want, d)
	}
	if got, want := r.MergeBytes, units.Bytes(4*2*r.SubParams); got != want {
		t.Errorf("merge moves %v, want k sub-models in bf16, %v", got, want)
	}
	t.Logf("sub-model step %v, merge %v, full step %v; peaks %v and %v", r.SubStep, r.Merge, r.FullStep, r.SubPeak, r.FullPeak)
}

func TestCheckNamesTheField(t *testing.T) {
	for _, c := range []struct{ edit, want string }{
		{"partitioned: {parts: 3, pre_steps: 3, full_steps: 2}", "partitioned.parts: 3 does not divide"},
		{"partitioned: {parts: 1, pre_steps: 3, full_steps: 2}", "partitioned.parts: is 1; allowed 2..64"},
		{"partitioned: {parts: 2, pre_steps: 0, full_steps: 2}", "partitioned.pre_steps: is 0"},
		{"partitioned: {parts: 2, pre_steps: 1, full_steps: 65}", "partitioned.full_steps: is 65"},
		{"parallel: {dp: 4, tp: 2, microbatches: 2}", "parallel.tp: is 2; partitioned pretraining trains with data parallelism only"},
		{"partitioned: {parts: 16, pre_steps: 3, full_steps: 2}", "partitioned.parts: 16 does not divide parallel.dp 8"},
	} {
		yaml := gpt
		key := strings.SplitN(c.edit, ":", 2)[0]
		for _, line := range strings.Split(gpt, "\n") {
			if strings.HasPrefix(line, key+":") {
				yaml = strings.Replace(yaml, line, c.edit, 1)
			}
		}
		s, err := scenario.Parse([]byte(yaml))
		if err == nil {
			err = s.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.edit, err, c.want)
		}
	}
}
