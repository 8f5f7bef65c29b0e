package training

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// canonical is the canonical fault trace of the acceptance tests
// (testdata/resihp-32.yaml) under recovery policy policy.
func canonical(t *testing.T, policy string) scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile("testdata/resihp-32.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	s.Recovery.Policy = policy
	return s
}

// TestResiHPBeatsRestartAndElastic replays the canonical trace (one GPU
// at 0.4 of its speed, then one GPU stopping, in a 32-GPU dp 2 × tp 4 ×
// pp 4 run) under the three policies: resihp's throughput (tokens trained
// over the run's time) beats checkpoint-restart's and elastic's.
func TestResiHPBeatsRestartAndElastic(t *testing.T) {
	tput := map[string]float64{}
	for _, p := range []string{scenario.PolicyResiHP, scenario.PolicyCheckpointRestart, scenario.PolicyElastic} {
		tl := mustSimulate(t, canonical(t, p))
		tput[p] = tl.Training.Tokens / tl.End.Seconds()
	}
	t.Logf("tokens/s: resihp %.0f, checkpoint-restart %.0f, elastic %.0f", tput["resihp"], tput["checkpoint-restart"], tput["elastic"])
	for _, p := range []string{scenario.PolicyCheckpointRestart, scenario.PolicyElastic} {
		if tput[scenario.PolicyResiHP] <= tput[p] {
			t.Errorf("resihp %.0f tokens/s, %s %.0f: want resihp ahead", tput[scenario.PolicyResiHP], p, tput[p])
		}
	}
}

// TestResiHPLayoutsMatchAFreshSimulation plays the canonical run step by
// step and checks every iteration against a fresh simulation of the
// layout it ran on: the layout's scenario (its grid of GPUs, its plan,
// its layer split), one iteration, with the fail-slow GPU still in it
// slowed as in the run. The re-partitioned and the regrouped layouts each
// run at exactly the time a fresh simulation gives them, and the regroup
// onto fewer GPUs is slower than the healthy plan (no gain from a
// failure).
func TestResiHPLayoutsMatchAFreshSimulation(t *testing.T) {
	s := canonical(t, scenario.PolicyResiHP)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	d, err := newDriver(s)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for step := 0; step < s.Iterations; {
		cur := d.cur
		next, err := d.iteration(step)
		if err != nil {
			t.Fatal(err)
		}
		it := d.out.Iterations[len(d.out.Iterations)-1]
		step = next
		if it.Aborted || seen[cur.gen] {
			continue
		}
		seen[cur.gen] = true
		fresh := onePlain(cur.s)
		fresh.Fidelity = s.Fidelity
		for _, f := range s.Faults {
			if g := cur.local(f.GPU); f.Kind == scenario.FailSlow && g >= 0 {
				fresh.Faults = append(fresh.Faults, scenario.Fault{Kind: f.Kind, GPU: g, Factor: f.Factor})
			}
		}
		want := mustSimulate(t, fresh).End
		if got := it.Observed(); got != want {
			t.Errorf("layout %d (%s, layers %v): step %d took %v in the run, %v in a fresh simulation",
				cur.gen, layoutLabel(cur.s), cur.s.Parallel.LayersPerStage, it.Step, got, want)
		}
	}
	if len(seen) != 3 {
		t.Errorf("the run went through %d layouts; want 3 (the plan, the re-partition, the regroup)", len(seen))
	}
	healthy := mustSimulate(t, onePlain(s)).End
	if last := d.out.Iterations[len(d.out.Iterations)-1]; last.Observed() <= healthy {
		t.Errorf("the regrouped layout takes %v an iteration, the healthy plan %v: a failure must not speed the job up", last.Observed(), healthy)
	}
}

// TestResiHPTheJobsPlanIsTheBestOfItsFamily checks the canonical trace's
// premise: on all 32 GPUs the regroup search picks the job's own plan, so
// the layouts it picks after a failure are compared with the best the job
// could run healthy.
func TestResiHPTheJobsPlanIsTheBestOfItsFamily(t *testing.T) {
	s := canonical(t, scenario.PolicyResiHP)
	d, err := newDriver(s)
	if err != nil {
		t.Fatal(err)
	}
	d.out = &timeline.Timeline{}
	p, err := d.bestLayout(make([]bool, s.NumGPUs()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := layoutLabel(p.s), layoutLabel(s); got != want {
		t.Errorf("the best layout on every GPU is %s; want the job's %s", got, want)
	}
}

// TestResiHPShowsItsReplans checks that the re-plans are on the
// timeline: a "replan" recovery step of positive length for the
// re-partition and for the regroup, each covered on every GPU of the new
// layout by a replanning state labelled with its replica and stage, its
// state transfer's messages inside it, and no compute on those GPUs
// while it lasts.
func TestResiHPShowsItsReplans(t *testing.T) {
	tl := mustSimulate(t, canonical(t, scenario.PolicyResiHP))
	var replans []timeline.Recovery
	for _, r := range tl.Recovery {
		if r.Kind == "replan" {
			replans = append(replans, r)
		}
	}
	if len(replans) != 2 || !strings.HasPrefix(replans[0].Detail, "re-partition") || !strings.HasPrefix(replans[1].Detail, "regroup") {
		t.Fatalf("replans %+v; want a re-partition, then a regroup", replans)
	}
	for _, r := range replans {
		if r.End <= r.Start {
			t.Errorf("%s: [%v, %v] has no length", r.Detail, r.Start, r.End)
		}
		gpus := map[int]bool{}
		for _, st := range tl.States {
			if st.State == timeline.StateReplan && st.Start == r.Start && st.End == r.End {
				gpus[st.GPU] = true
				if !strings.HasPrefix(st.Group, "r") || !strings.Contains(st.Group, "·s") {
					t.Errorf("GPU %d replans with group %q; want e.g. r0·s1", st.GPU, st.Group)
				}
			}
		}
		if len(gpus) == 0 {
			t.Errorf("%s: no GPU is shown replanning", r.Detail)
		}
		moved := 0
		for i := range tl.Transfers.Len() {
			if x := tl.Transfers.At(i); x.Start >= r.Start && x.End <= r.End && tl.Collectives[x.Collective].Purpose == "model" {
				moved++
			}
		}
		if moved == 0 {
			t.Errorf("%s: no state transfer on the fabric", r.Detail)
		}
		for _, sp := range tl.Spans {
			if gpus[sp.GPU] && sp.Start < r.End && sp.End > r.Start {
				t.Errorf("%s: GPU %d computes %s [%v, %v] during the re-plan", r.Detail, sp.GPU, sp.Label, sp.Start, sp.End)
				break
			}
		}
	}
}

// TestStateTransferClosedForm checks the state the re-partition moves
// against its closed form. With ZeRO 0 a GPU keeps 2 bytes of bf16
// weights and 12 of Adam states (fp32 master weights, momentum,
// variance) per parameter of its slice; moving from 10,10,10,10 layers to
// 12,5,12,11 hands layers 11-12 to stage 0, 18-20 to stage 2 and 30 to
// stage 3 (stage 1 keeps 13-17 of what it had): 6 layers, each in both
// replicas, whose tp slices add up to the whole layer, so 6 × dp × P ×
// 14 bytes for a layer of P parameters.
func TestStateTransferClosedForm(t *testing.T) {
	s := onePlain(canonical(t, scenario.PolicyResiHP))
	next := s
	next.Parallel.LayersPerStage = []int{12, 5, 12, 11}
	from, err := holdings(s)
	if err != nil {
		t.Fatal(err)
	}
	to, err := holdings(next)
	if err != nil {
		t.Fatal(err)
	}
	tl := mustSimulate(t, s) // its GPUs and servers
	m := mover{from: from, to: to, old: placement{s: s}, next: placement{s: next}, gone: make([]bool, 32), out: tl}
	if err := m.plan(); err != nil {
		t.Fatal(err)
	}
	var got float64
	for _, x := range m.xfers {
		got += x.bytes
	}
	model, _ := s.Model.Resolve()
	want := 6 * 2 * workload.StageParams(model, 1, false, false, 1, 1) * 14
	if d := got/want - 1; d > 1e-9 || d < -1e-9 {
		t.Errorf("moved %.6g bytes; want 6 layers × 2 replicas × 14 B × %.4g parameters = %.6g", got, workload.StageParams(model, 1, false, false, 1, 1), want)
	}
}

// TestResiHPRefuses checks the combinations resihp refuses, each naming
// recovery.policy.
func TestResiHPRefuses(t *testing.T) {
	base := canonical(t, scenario.PolicyResiHP)
	for _, tc := range []struct {
		name string
		edit func(*scenario.Scenario)
		want string
	}{
		{"synthetic", func(s *scenario.Scenario) {
			s.Model = scenario.Model{Synthetic: scenario.Synthetic{Forward: units.Millisecond, BackwardInput: units.Millisecond, BackwardWeight: units.Millisecond}}
		}, "model.synthetic"},
		{"one replica", func(s *scenario.Scenario) { s.Parallel.DP, s.Parallel.PP, s.Parallel.Microbatches = 1, 8, 64 }, "parallel.dp ≥ 2 (it is 1)"},
		{"mixed GPUs", func(s *scenario.Scenario) { s.Cluster.NodeGPUs = []string{"a100-sxm-40gb", "a100-sxm-80gb"} }, "node_gpus"},
	} {
		s := base
		tc.edit(&s)
		err := s.Validate()
		var fe *scenario.FieldError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), "recovery.policy") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want recovery.policy saying %q", tc.name, err, tc.want)
		}
	}
}

// TestGrids checks the grids of healthy GPUs: on 4 servers of 8 with GPU
// 5 (server 0, slot 5) and GPU 22 (server 2, slot 6) out, using every
// slot keeps servers 1 and 3 (2 × 8), leaving out slot 5 keeps the
// servers with no GPU out in the other slots (0, 1 and 3: 3 × 7; leaving
// out slot 6 instead is the same shape, not listed again), and leaving
// out both keeps 4 × 6.
func TestGrids(t *testing.T) {
	bad := make([]bool, 32)
	bad[5], bad[22] = true, true
	got := grids(bad, 4, 8)
	want := []grid{{[]int{1, 3}, []int{0, 1, 2, 3, 4, 5, 6, 7}}, {[]int{0, 1, 3}, []int{0, 1, 2, 3, 4, 6, 7}},
		{[]int{0, 1, 2, 3}, []int{0, 1, 2, 3, 4, 7}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grids %v; want %v", got, want)
	}
}

// TestResiHPFallsBackToDropping checks resihp when no plan fits the GPUs
// left (here every plan on the survivors needs more memory than the job's
// own, already over the HBM: 4096 sequences a microbatch): the job drops
// the stopped GPU's replica, as elastic data parallelism does, instead of
// failing.
func TestResiHPFallsBackToDropping(t *testing.T) {
	data, err := os.ReadFile("../scenario/testdata/faults-resihp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	s.Parallel.Microbatches, s.Parallel.MicroBatchSize = 1, 4096
	tl := mustSimulate(t, s)
	var kinds []string
	for _, r := range tl.Recovery {
		kinds = append(kinds, r.Kind)
	}
	if !strings.Contains(strings.Join(kinds, " "), "drop") {
		t.Errorf("recovery steps %v; want a drop when no plan fits", kinds)
	}
}

// TestResiHPStateMovesUnderTheRunsProtocol runs the ResiHP example on one
// 8-GPU server under NCCL's LL protocol, which carries half a line of
// payload: the model state a replan moves goes by NCCL send/receive, so
// it sees the same halved links the run's other messages see (it used to
// go at full speed on links recorded at half, and the run was refused as
// inconsistent), and a replan lasts longer than under Simple.
func TestResiHPStateMovesUnderTheRunsProtocol(t *testing.T) {
	data, err := os.ReadFile("../scenario/testdata/faults-resihp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	replan := func(protocol string) units.Time {
		s, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		s.Cluster.Nodes, s.Cluster.GPUsPerNode = 1, 8
		s.Collective.Protocol = protocol
		var moved units.Time
		for _, r := range mustSimulate(t, s).Recovery {
			if r.Kind == "replan" && strings.HasPrefix(r.Detail, "re-partition") {
				moved = r.End - r.Start
			}
		}
		if moved == 0 {
			t.Fatalf("protocol %s: no re-partition", protocol)
		}
		return moved
	}
	if ll, simple := replan("ll"), replan("simple"); ll <= simple {
		t.Errorf("re-partition under ll %v, under simple %v; want ll longer (half the payload per line)", ll, simple)
	}
}
