package training

import (
	"net/url"
	"strings"
	"testing"

	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// estimateCases are training scenarios of every shape the planner
// searches: schedules, ZeRO stages, recomputation, context and expert
// parallelism, a tensor-parallel group across nodes.
var estimateCases = []string{
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=4&pp=2&microbatches=8&schedule=1f1b&sequence_parallel=true&recompute=selective",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=4&tp=2&pp=2&microbatches=4&schedule=interleaved&virtual_stages=2&zero=1",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=2&pp=4&microbatches=8&schedule=zb-h1&zero=2&recompute=full",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=2&pp=4&microbatches=8&schedule=zb-v&zero=3",
	"model=llama3-8b&gpu=h800&nodes=2&gpus_per_node=8&dp=2&tp=2&pp=4&microbatches=8&schedule=1f1b&recompute=full&precision=fp8",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=2&cp=2&pp=2&microbatches=4&schedule=interleaved&virtual_stages=4&micro_batch_size=2",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=4&dp=1&tp=8&pp=1&microbatches=4&schedule=1f1b",
	"model=mixtral-8x7b&seq_len=4096&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=4&ep=4&tp=2&pp=2&microbatches=4&schedule=1f1b&zero=1",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=2&pp=4&microbatches=8&schedule=1f1b&partition=balanced",
	"gpus=4&network=ideal&tf=3ms&tb=2ms&tw=1ms&pp=4&microbatches=8&schedule=zb-v",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=2&pp=4&microbatches=8&schedule=1f1b-2bp&zero=1",
	"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=2&tp=4&pp=2&microbatches=4&schedule=gpipe-2bp&recompute=full&precision=fp8",
}

func parseCase(t testing.TB, q string) scenario.Scenario {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.FromQuery(v)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

// TestEstimateMatchesRun checks the estimate against the run it predicts:
// the same peak memory to the byte, and an iteration no shorter than the
// lower bound.
func TestEstimateMatchesRun(t *testing.T) {
	e := NewEstimator()
	for _, q := range estimateCases {
		s := parseCase(t, q)
		est, err := e.Estimate(s)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		tl, err := simulate(s)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var peak units.Bytes
		for _, m := range tl.Memory {
			peak = max(peak, m.Peak)
		}
		if est.PeakMemory != peak {
			t.Errorf("%s: estimated peak %d B, the run's %d B", q, est.PeakMemory, peak)
		}
		if est.LowerBound > tl.End || est.LowerBound <= 0 {
			t.Errorf("%s: lower bound %v, the run took %v; want 0 < bound ≤ run", q, est.LowerBound, tl.End)
		}
		if sum := est.Compute + est.Blocking + est.Wait + est.Stream + est.Optimizer + est.Gather; sum != est.LowerBound {
			t.Errorf("%s: parts sum to %v, bound %v", q, sum, est.LowerBound)
		}
		quick, err := e.Quick(s)
		if err != nil {
			t.Fatal(err)
		}
		if quick.PeakMemory != est.PeakMemory || quick.Work != est.Work || quick.LowerBound != quick.Work || est.Work > est.LowerBound {
			t.Errorf("%s: Quick gives peak %v, work %v, bound %v; Estimate peak %v, work %v, bound %v; want the same peak and work, work ≤ bound",
				q, quick.PeakMemory, quick.Work, quick.LowerBound, est.PeakMemory, est.Work, est.LowerBound)
		}
	}
}

// TestEstimateIdealNetworkIsExact: with free communication the run is the
// longest path the bound computes, so they agree to the nanosecond.
func TestEstimateIdealNetworkIsExact(t *testing.T) {
	e := NewEstimator()
	for _, q := range []string{
		"model=llama3-8b&gpu=h100-sxm&network=ideal&nodes=1&gpus_per_node=8&dp=2&tp=1&pp=4&microbatches=8&schedule=1f1b",
		"model=llama3-8b&gpu=h100-sxm&network=ideal&nodes=1&gpus_per_node=8&dp=1&tp=2&pp=4&microbatches=8&schedule=zb-v&recompute=selective",
		"model=llama3-8b&gpu=h100-sxm&network=ideal&nodes=1&gpus_per_node=8&dp=1&tp=1&pp=8&microbatches=16&schedule=interleaved&virtual_stages=2",
	} {
		s := parseCase(t, q)
		est, err := e.Estimate(s)
		if err != nil {
			t.Fatal(err)
		}
		tl, err := simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		if est.LowerBound != tl.End {
			t.Errorf("%s: bound %v, run %v; want equal with free communication", q, est.LowerBound, tl.End)
		}
	}
}

// TestEstimateSyntheticMatchesExecute compares the bound with the pipeline
// package's own executor on uniform synthetic op times.
func TestEstimateSyntheticMatchesExecute(t *testing.T) {
	for _, sched := range []string{"1f1b", "zb-h1", "zb-v", "interleaved"} {
		q := "gpus=4&network=ideal&tf=3ms&tb=2ms&tw=1ms&pp=4&microbatches=8&schedule=" + sched
		v := 0
		if sched == "interleaved" {
			q += "&virtual_stages=2"
			v = 2
		}
		est, err := NewEstimator().Estimate(parseCase(t, q))
		if err != nil {
			t.Fatal(err)
		}
		sch, err := pipeline.New(sched, 4, 8, v)
		if err != nil {
			t.Fatal(err)
		}
		// The scenario's synthetic times are per stage; a chunk runs 1/v.
		vt := units.Time(sch.Chunks)
		want := pipeline.Execute(sch, pipeline.Times{F: 3 * units.Millisecond / vt, B: 2 * units.Millisecond / vt, W: units.Millisecond / vt}).Makespan
		if sched == "1f1b" || sched == "interleaved" {
			// Without a split backward the executor counts B alone; the
			// scenario's full backward is B + W.
			want = pipeline.Execute(sch, pipeline.Times{F: 3 * units.Millisecond / vt, B: 3 * units.Millisecond / vt}).Makespan
		}
		if est.LowerBound != want {
			t.Errorf("%s: bound %v, pipeline.Execute %v", sched, est.LowerBound, want)
		}
	}
}

func TestEstimateRejects(t *testing.T) {
	for _, c := range []struct{ query, field string }{
		{"gpus=4", "strategy"},
		{"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=16&microbatches=2&iterations=3", "iterations"},
		{"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&dp=16&microbatches=2&node_gpus=h100-sxm,a100-sxm-80gb", "cluster.node_gpus"},
	} {
		_, err := NewEstimator().Estimate(parseCase(t, c.query))
		if err == nil || !strings.HasPrefix(err.Error(), c.field+":") {
			t.Errorf("%s: error %v; want one naming %s", c.query, err, c.field)
		}
	}
}

func BenchmarkQuickLlama70B(b *testing.B) {
	s := parseCase(b, "model=llama3-70b&gpu=h100-sxm&nodes=8&gpus_per_node=8&dp=2&tp=8&pp=4&microbatches=256&schedule=interleaved&virtual_stages=2&sequence_parallel=true&recompute=selective")
	e := NewEstimator()
	for b.Loop() {
		if _, err := e.Quick(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEstimateLlama70B(b *testing.B) {
	s := parseCase(b, "model=llama3-70b&gpu=h100-sxm&nodes=8&gpus_per_node=8&dp=2&tp=8&pp=4&microbatches=256&schedule=interleaved&virtual_stages=2&sequence_parallel=true&recompute=selective")
	e := NewEstimator()
	for b.Loop() {
		if _, err := e.Estimate(s); err != nil {
			b.Fatal(err)
		}
	}
}
