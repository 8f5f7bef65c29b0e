//go:build !js

package opgraph

import (
	"fmt"
	"math"
	"testing"

	"paraplay/sim/nccltest"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestOneReplicaAStageIsGPipe holds StageReplicas of all ones to the plain
// model split: the same makespan.
func TestOneReplicaAStageIsGPipe(t *testing.T) {
	g, _ := ResNet50(224)
	r := Run{GPU: "h100-sxm", GPUs: 4, Batch: 64, Split: Model, Microbatches: 8}
	a, err := Simulate(g, r)
	if err != nil {
		t.Fatal(err)
	}
	r.StageReplicas = []int{1, 1, 1, 1}
	b, err := Simulate(g, r)
	if err != nil {
		t.Fatal(err)
	}
	if a.End != b.End || len(a.Spans) != len(b.Spans) {
		t.Errorf("stage_replicas [1 1 1 1]: %v, %d spans; plain model split %v, %d", b.End, len(b.Spans), a.End, len(a.Spans))
	}
}

// TestReplicatedStageClosedForm holds one stage on d replicas to its
// closed form: with the m microbatches dealt in turn, each replica runs
// m/d forwards and m/d backwards (2f each) back to back, then the ring
// all-reduce of the stage's bf16 gradient S, whose simulated time is held
// to 2(d−1)·α + 2(d−1)/d·S/B on NVLink within 0.01%: T = 3f·m/d + T_AR.
func TestReplicatedStageClosedForm(t *testing.T) {
	g := chain(4, 4096)
	for _, d := range []int{2, 4, 8} {
		r := Run{GPU: "h100-sxm", GPUs: d, Batch: 256, Split: Model, Microbatches: 8, StageReplicas: []int{d}}
		tl, err := Simulate(g, r)
		if err != nil {
			t.Fatal(err)
		}
		var f units.Time
		gpu, _ := r.check(g)
		for _, o := range g.Ops {
			f += forwardTime(o, 32, gpu)
		}
		tp, _ := nccltest.Topology(hostScenario(r))
		alpha, bw, err := topo.NewRouter(tp).PathCost(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		bytes := float64(2 * g.Params())
		dd := float64(d)
		want := 2*(dd-1)*alpha.Seconds() + 2*(dd-1)/dd*bytes/float64(bw)
		ar := tl.End - 3*f*units.Time(8/d)
		if rel := ar.Seconds()/want - 1; math.Abs(rel) > 1e-4 {
			t.Errorf("d %d: makespan %v − 3f·m/d = %v, ring closed form %.6g s (%+.4f%%)", d, tl.End, ar, want, 100*rel)
		}
	}
}

// TestPlanStages is DAPPLE's planner on eight H100s: over every split of
// the GPUs into stages, its plan is no slower than the best uniform one
// (every stage the same replicas: pure data parallelism [8], 2×4, 4×2,
// pure model parallelism 8×1), and it says which it chose.
func TestPlanStages(t *testing.T) {
	res, _ := ResNet50(224)
	lstm, _ := Seq2SeqLSTM(30, 30)
	for _, g := range []Graph{res, lstm} {
		r := Run{GPU: "h100-sxm", GPUs: 8, Batch: 256, Split: Model, Microbatches: 8}
		best, bt, err := PlanStages(g, r)
		if err != nil {
			t.Fatal(err)
		}
		uniform := units.Time(-1)
		var which []int
		for _, reps := range [][]int{{8}, {4, 4}, {2, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1}} {
			q := r
			q.StageReplicas = reps
			tl, err := Simulate(g, q)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %v: %v", g.Name, reps, tl.End)
			if uniform < 0 || tl.End < uniform {
				uniform, which = tl.End, reps
			}
		}
		if g.Name == lstm.Name && (bt >= uniform || len(best.StageReplicas) < 2) {
			t.Errorf("%s: planned %v in %v; want stages of their own replicas to beat uniform %v in %v", g.Name, best.StageReplicas, bt, which, uniform)
		}
		if bt > uniform {
			t.Errorf("%s: planned %v in %v, slower than uniform %v in %v", g.Name, best.StageReplicas, bt, which, uniform)
		}
		t.Logf("%s: planned stage replicas %v in %v; best uniform %v in %v (%s)", g.Name, best.StageReplicas, bt, which, uniform,
			fmt.Sprintf("%.3f×", uniform.Seconds()/bt.Seconds()))
	}
}
