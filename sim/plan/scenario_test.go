package plan

import (
	"net/url"
	"os"
	"paraplay/sim/training"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
)

// The planner on real models and scenarios: the hand-written plans of the
// 3D-parallelism article, the question a scenario asks, and the candidate
// plans of the planner article's Llama 3 405B example.

// presets are the hand-written plans for Llama 3 70B on 64 H100s in
// docs/3d-parallelism.md (the article's demos and its table), each with the
// global batch it implies (dp × microbatches).
var presets = []struct {
	batch int
	yaml  string
}{
	{16, "parallel: {dp: 2, tp: 8, pp: 4, microbatches: 8, schedule: 1f1b, sequence_parallel: true, recompute: selective}"},
	{16, "parallel: {dp: 2, tp: 8, pp: 4, microbatches: 8, schedule: 1f1b, sequence_parallel: true, recompute: selective, order: \"dp,tp,cp,pp\"}"},
	{16, "parallel: {dp: 2, tp: 8, pp: 4, microbatches: 8, schedule: interleaved, virtual_stages: 5, sequence_parallel: true, recompute: selective}"},
	{16, "parallel: {dp: 4, tp: 4, pp: 4, microbatches: 4, schedule: 1f1b, sequence_parallel: true, recompute: selective}"},
	{32, "parallel: {dp: 2, tp: 8, pp: 4, microbatches: 16, schedule: 1f1b, sequence_parallel: true, recompute: selective}"},
	{32, "parallel: {dp: 2, tp: 8, pp: 4, microbatches: 16, schedule: interleaved, virtual_stages: 5, sequence_parallel: true, recompute: selective}"},
	{16, "parallel: {dp: 1, tp: 8, pp: 8, microbatches: 16, schedule: 1f1b, sequence_parallel: true, recompute: selective}"},
}

// TestBestBeatsPresets: for the model and cluster of the hand-written
// plans, the planner's best plan is at least as fast as each of them that
// fits, at the same global batch and fidelity.
func TestBestBeatsPresets(t *testing.T) {
	const head = "model: {preset: llama3-70b}\ncluster: {gpu: h100-sxm, nodes: 8, gpus_per_node: 8, intra: nvlink4, inter: ib-ndr}\nfidelity: analytic\n"
	best := map[int]*Plan{}
	for _, p := range presets {
		s, err := scenario.Parse([]byte(head + p.yaml))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := run.Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		oom := false
		for _, m := range tl.Memory {
			oom = oom || m.OOM()
		}
		if oom {
			continue // a plan that does not fit is no plan to beat
		}
		if best[p.batch] == nil {
			cfg := Config{Model: s.Model, Cluster: s.Cluster, GlobalBatch: p.batch}
			best[p.batch] = mustRun(t, cfg, 2).Plans[0]
			t.Logf("global batch %d: best %s, %v", p.batch, best[p.batch].Scenario.Query().Encode(), best[p.batch].Result.Iteration)
		}
		if b := best[p.batch].Result.Iteration; b > tl.End {
			t.Errorf("preset %s runs in %v, faster than the planner's best %v", p.yaml, tl.End, b)
		} else {
			t.Logf("preset %s: %v", p.yaml, tl.End)
		}
	}
}

// BenchmarkPlanLlama70B is the acceptance case: Llama 3 70B on 64 H100s
// (8 servers of 8), 512 sequences of 8,192 tokens, on two workers.
func BenchmarkPlanLlama70B(b *testing.B) {
	cfg := Config{Model: scenario.Model{Preset: "llama3-70b", SeqLen: 8192},
		Cluster: scenario.Cluster{GPU: "h100-sxm", Nodes: 8, GPUsPerNode: 8}, GlobalBatch: 512}
	for b.Loop() {
		r := mustRun(b, cfg, 2)
		if !r.Plans[0].Fits {
			b.Fatal("the best plan does not fit")
		}
		b.ReportMetric(float64(r.Progress.Simulated), "simulated/op")
	}
}

// TestForScenario checks the question a scenario asks the planner: its
// model, cluster and global batch; and the scenarios it cannot ask.
func TestForScenario(t *testing.T) {
	q, _ := url.ParseQuery("model=llama3-8b&seq_len=2048&gpu=h100-sxm&nodes=2&gpus_per_node=4&dp=4&tp=2&microbatches=2&micro_batch_size=2")
	s, err := scenario.FromQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ForScenario(s)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GlobalBatch != 16 || cfg.GPUs() != 8 || cfg.Model.SeqLen != 2048 || cfg.Cluster.GPUsPerNode != 4 {
		t.Errorf("config %+v; want 16 sequences of 2,048 tokens on 2 × 4 GPUs", cfg)
	}
	for _, bad := range []string{"gpus=4", "gpus=4&network=ideal&tf=1ms&pp=4&microbatches=8", "model=llama3-8b&gpus=8&dp=8"} {
		q, _ := url.ParseQuery(bad)
		s, _ := scenario.FromQuery(q)
		if _, err := ForScenario(s); err == nil || !strings.HasPrefix(err.Error(), "plan:") {
			t.Errorf("%s: error %v; want one saying what the planner needs", bad, err)
		}
	}
}

// TestLlama405Candidates checks the candidate plans of docs/planner.md's
// worked example (testdata/llama3-405b): each is a valid scenario of
// Llama 3 405B on 16,384 H100s with Meta's global batch (2,048 sequences
// of 8,192 tokens) and fits in an H100's memory, by the screen's exact
// peak. Simulating them takes seconds each, so the test only screens.
func TestLlama405Candidates(t *testing.T) {
	files := golden.Files(t, "testdata/llama3-405b/*.yaml")
	if len(files) < 5 {
		t.Fatalf("%d candidate files; want the article's seven", len(files))
	}
	est := training.NewEstimator()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		p := s.Parallel
		if n, batch := s.NumGPUs(), p.DP*p.Microbatches*p.MicroBatchSize; n != 16384 || batch != 2048 || s.Model.SeqLen != 8192 {
			t.Errorf("%s: %d GPUs, %d sequences of %d tokens; want 16,384, 2,048 and 8,192", f, n, batch, s.Model.SeqLen)
		}
		e, err := est.Estimate(s)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if e.OOM() {
			t.Errorf("%s: peak %v over the GPU's %v", f, e.PeakMemory, e.Capacity)
		}
	}
}
