package plan

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"paraplay/sim/taskgraph"
	"strings"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// small is a search space that runs in a second or two: Llama 3 8B with
// 2,048-token sequences on two servers of four H100s.
func small() Config {
	return Config{Model: scenario.Model{Preset: "llama3-8b", SeqLen: 2048},
		Cluster:     scenario.Cluster{GPU: "h100-sxm", Nodes: 2, GPUsPerNode: 4},
		GlobalBatch: 16, MaxMicroBatch: 2}
}

func mustRun(t testing.TB, cfg Config, workers int) *Result {
	t.Helper()
	r, err := Run(cfg, workers, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(*Config)
		field string
	}{
		{"no batch", func(c *Config) { c.GlobalBatch = 0 }, "global_batch"},
		{"huge micro-batch", func(c *Config) { c.MaxMicroBatch = 1000 }, "max_micro_batch"},
		{"too many detailed", func(c *Config) { c.Detailed = 99 }, "detailed"},
		{"no gpu", func(c *Config) { c.Cluster.GPU = "" }, "cluster.gpu"},
		{"unknown gpu", func(c *Config) { c.Cluster.GPU = "tpu-v9" }, "cluster.gpu"},
		{"no gpus per node", func(c *Config) { c.Cluster.GPUsPerNode = 0 }, "cluster.gpus_per_node"},
		{"unknown model", func(c *Config) { c.Model.Preset = "gpt-9" }, "model"},
		{"synthetic", func(c *Config) { c.Model = scenario.Model{Synthetic: scenario.Synthetic{Forward: units.Millisecond}} }, "model.synthetic"},
		{"bad precision", func(c *Config) { c.Training.Precision = "fp4" }, "training.precision"},
	} {
		cfg := small()
		c.edit(&cfg)
		err := cfg.Validate()
		var fe *scenario.FieldError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: Validate() = %v; want an error naming %s", c.name, err, c.field)
		}
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: New accepted the config", c.name)
		}
	}
	if err := small().Validate(); err != nil {
		t.Errorf("small config: %v", err)
	}
}

// TestEnumerateCount counts the space independently: every (dp, tp, pp,
// cp, b) by brute force over all integers, then the schedules, layer
// splits, overlap, ZeRO stages and recomputation policies each allows.
func TestEnumerateCount(t *testing.T) {
	cfg := small()
	m, _ := cfg.Model.Resolve()
	want := 0
	n := cfg.GPUs()
	for dp := 1; dp <= n; dp++ {
		for tp := 1; tp <= cfg.Cluster.GPUsPerNode; tp++ {
			for pp := 1; pp <= n; pp++ {
				for cp := 1; cp <= n; cp++ {
					for _, b := range []int{1, 2} {
						if dp*tp*pp*cp != n || cfg.GlobalBatch%(dp*b) != 0 {
							continue
						}
						mb := cfg.GlobalBatch / (dp * b)
						// Each schedule's model stages: 1f1b, zb-h1 and
						// zb-h2 one per device, interleaved v = 2, 4, 8,
						// zb-v and dualpipev two.
						stages := []int{pp}
						if pp > 1 {
							stages = []int{pp, pp, pp}
							for _, v := range []int{2, 4, 8} {
								if mb%pp == 0 && pp*v <= m.Layers {
									stages = append(stages, pp*v)
								}
							}
							if mb >= 2*pp && 2*pp <= m.Layers {
								stages = append(stages, 2*pp, 2*pp)
							}
						}
						zeros := 4
						if dp == 1 {
							zeros = 1
						}
						for _, k := range stages {
							variants := 1 // the equal split; Llama 3's when every stage keeps a layer
							if k > 1 && (m.Layers+2)/k >= 2 {
								variants++
							}
							if tp > 1 { // tensor-parallel overlap on and off
								variants *= 2
							}
							want += variants * zeros * 3
						}
					}
				}
			}
		}
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.all); got != want {
		t.Errorf("enumerated %d plans, counted %d", got, want)
	}
	for _, p := range s.all {
		q := p.Scenario.Parallel
		if q.DP*q.TP*q.PP*q.CP != n || q.DP*q.Microbatches*q.MicroBatchSize != cfg.GlobalBatch ||
			q.SequenceParallel != (q.TP > 1) || (q.ZeRO > 0 && q.DP == 1) || q.TP > cfg.Cluster.GPUsPerNode {
			t.Errorf("plan %v breaks an enumeration rule", p.Scenario.Query().Encode())
		}
	}
}

// TestSearchProperties checks on several spaces what every search must
// hold: each returned plan passes Validate; the best fits and no simulated
// plan beats it; every plan left unsimulated had a bound no better than
// the best (so pruning lost nothing), and the statuses add up.
func TestSearchProperties(t *testing.T) {
	moe := Config{Model: scenario.Model{Preset: "mixtral-8x7b", SeqLen: 4096},
		Cluster: scenario.Cluster{GPU: "h100-sxm", Nodes: 2, GPUsPerNode: 8}, GlobalBatch: 32, MaxMicroBatch: 1}
	a100 := Config{Model: scenario.Model{Preset: "gpt3-1.3b"}, Cluster: scenario.Cluster{GPU: "a100-sxm-80gb", Nodes: 1, GPUsPerNode: 8},
		GlobalBatch: 64, MaxMicroBatch: 4, CrossNodeTP: true}
	for _, cfg := range []Config{small(), moe, a100} {
		r := mustRun(t, cfg, 2)
		best := r.Plans[0]
		if best.Status != Best || !best.Fits || best.Result == nil || best.Result.OOM {
			t.Fatalf("%s: first plan %+v; want the best, fitting, simulated", cfg.Model.Preset, best)
		}
		counts := map[Status]int{}
		for _, p := range r.Plans {
			counts[p.Status]++
			if err := p.Scenario.Validate(); err != nil {
				t.Errorf("%s: returned invalid plan %s: %v", cfg.Model.Preset, p.Scenario.Query().Encode(), err)
			}
			if p.Status != Best && (p.Reason == "" || p.Why == "") {
				t.Errorf("%s: %s plan %s has no reason", cfg.Model.Preset, p.Status, p.Scenario.Query().Encode())
			}
			switch p.Status {
			case Simulated:
				if p.Result.Iteration < best.Result.Iteration {
					t.Errorf("%s: simulated plan %v beats the best %v", cfg.Model.Preset, p.Result.Iteration, best.Result.Iteration)
				}
			case Bounded:
				if p.Estimate.LowerBound < best.Result.Iteration {
					t.Errorf("%s: bounded plan's bound %v is below the best %v", cfg.Model.Preset, p.Estimate.LowerBound, best.Result.Iteration)
				}
			case OutOfMemory:
				if p.Fits || p.Estimate.PeakMemory <= p.Estimate.Capacity {
					t.Errorf("%s: plan out of memory with peak %v of %v", cfg.Model.Preset, p.Estimate.PeakMemory, p.Estimate.Capacity)
				}
			}
		}
		pr := r.Progress
		if counts[Best]+counts[Simulated] != pr.Simulated || counts[Bounded] != pr.Bounded || counts[OutOfMemory] != pr.OutOfMemory ||
			counts[Dominated] != pr.Dominated || len(r.Plans)+pr.Rejected != pr.Plans {
			t.Errorf("%s: statuses %v do not add up to the progress %+v", cfg.Model.Preset, counts, pr)
		}
		t.Logf("%s: %d plans, %d rejected, %d oom, %d dominated, %d bounded, %d simulated; best %s in %v",
			cfg.Model.Preset, pr.Plans, pr.Rejected, pr.OutOfMemory, pr.Dominated, pr.Bounded, pr.Simulated,
			best.Scenario.Query().Encode(), best.Result.Iteration)
	}
}

// TestPruningIsSafe simulates, in a small space, every plan the bound
// ruled out: none beats the best.
func TestPruningIsSafe(t *testing.T) {
	r := mustRun(t, small(), 2)
	best := r.Plans[0].Result.Iteration
	checked := 0
	for _, p := range r.Plans {
		if p.Status != Bounded {
			continue
		}
		simulate(p, taskgraph.Analytic)
		if p.Result.Iteration < best {
			t.Errorf("bounded plan %s runs in %v, faster than the best %v", p.Scenario.Query().Encode(), p.Result.Iteration, best)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("the bound ruled out no plan; the test checks nothing")
	}
}

// TestFittingPlansRunWithoutOOM: every plan reported as fitting runs at
// detailed fidelity within its GPU's memory, at exactly the estimated peak.
func TestFittingPlansRunWithoutOOM(t *testing.T) {
	cfg := small()
	cfg.MaxMicroBatch = 1
	cfg.Exhaustive = true // simulate them all at analytic fidelity too
	r := mustRun(t, cfg, 2)
	fitting := 0
	for _, p := range r.Plans {
		if !p.Fits {
			continue
		}
		fitting++
		simulate(p, taskgraph.Detailed)
		if p.err != nil {
			t.Fatal(p.err)
		}
		if p.Detailed.OOM || p.Detailed.PeakMemory != p.Estimate.PeakMemory {
			t.Errorf("%s: detailed run peaks at %v (OOM %v); estimated %v", p.Scenario.Query().Encode(),
				p.Detailed.PeakMemory, p.Detailed.OOM, p.Estimate.PeakMemory)
		}
	}
	if fitting < 50 {
		t.Errorf("only %d plans fit; want a space with many", fitting)
	}
}

// TestDeterministic: one worker, two workers and Step in slices give the
// same plans in the same order with the same figures.
func TestDeterministic(t *testing.T) {
	cfg := small()
	cfg.Detailed = 2
	digest := func(r *Result) string {
		var b strings.Builder
		for _, p := range r.Plans {
			fmt.Fprintf(&b, "%s %s %v %s\n", p.Scenario.Query().Encode(), p.Status, p.Iteration(), p.Why)
			if p.Detailed != nil {
				fmt.Fprintf(&b, " detailed %v\n", p.Detailed.Iteration)
			}
		}
		return b.String()
	}
	one, two := digest(mustRun(t, cfg, 1)), digest(mustRun(t, cfg, 2))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for !s.Step(7) {
		steps++
		if pr := s.Progress(); pr.Done > pr.Total {
			t.Fatalf("progress %d of %d", pr.Done, pr.Total)
		}
	}
	r, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	if one != two || one != digest(r) {
		t.Errorf("results differ between 1 worker, 2 workers and %d slices", steps)
	}
	if !strings.Contains(one, "detailed") {
		t.Error("no plan was re-simulated in detail")
	}
}

// TestZeRO1TwinOfZeRO2 checks the dominance rule: ZeRO-1 and ZeRO-2 run
// the same iteration, and ZeRO-2 needs less memory.
func TestZeRO1TwinOfZeRO2(t *testing.T) {
	s := small().scenario()
	s.Parallel.DP, s.Parallel.TP, s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.SequenceParallel = 2, 2, 2, 8, true
	s.Parallel.Schedule = "zb-h1"
	var end [4]units.Time
	var peak [4]units.Bytes
	for z := 1; z <= 2; z++ {
		s.Parallel.ZeRO = z
		tl, err := run.Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		end[z] = tl.End
		for _, m := range tl.Memory {
			peak[z] = max(peak[z], m.Peak)
		}
	}
	if end[1] != end[2] || peak[2] >= peak[1] {
		t.Errorf("ZeRO-1: %v, %v; ZeRO-2: %v, %v; want the same time and less memory", end[1], peak[1], end[2], peak[2])
	}
}

// TestSequenceParallelDominates checks the rule that fixes sequence
// parallelism on: no slower (the same collective bytes, and the norms,
// dropouts and residual adds run on a 1/t shard of the tokens), less
// memory.
func TestSequenceParallelDominates(t *testing.T) {
	s := small().scenario()
	s.Parallel.DP, s.Parallel.TP, s.Parallel.PP, s.Parallel.Microbatches = 2, 4, 1, 8
	var end [2]units.Time
	var peak [2]units.Bytes
	for i, sp := range []bool{false, true} {
		s.Parallel.SequenceParallel = sp
		tl, err := run.Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		end[i] = tl.End
		for _, m := range tl.Memory {
			peak[i] = max(peak[i], m.Peak)
		}
	}
	if end[1] > end[0] || peak[1] >= peak[0] {
		t.Errorf("without SP %v, %v; with SP %v, %v; want no slower, less memory with SP", end[0], peak[0], end[1], peak[1])
	}
}

func TestResultBeforeDone(t *testing.T) {
	s, err := New(small())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Result(); err == nil {
		t.Error("Result before the search ended gave no error")
	}
}

// BenchmarkScreen is the cost of screening one plan.
func BenchmarkScreen(b *testing.B) {
	s, err := New(small())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		p := *s.all[i%len(s.all)]
		screen(&p, s.est)
	}
}

// TestRandomSpacesProperty draws small search spaces from a seeded source
// (models, GPU types, cluster shapes, batches, options) and checks on each
// that every returned plan passes Validate, that the best fits, and that
// no simulated plan beats it.
func TestRandomSpacesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	models := []string{"llama3-8b", "gpt3-1.3b", "mixtral-8x7b", "megatron-1.7b"}
	gpus := []string{"h100-sxm", "a100-sxm-80gb"}
	for i := 0; i < 20; i++ {
		cfg := Config{
			Model:         scenario.Model{Preset: models[rng.IntN(len(models))], SeqLen: 512 << rng.IntN(3)},
			Cluster:       scenario.Cluster{GPU: gpus[rng.IntN(len(gpus))], Nodes: 1 + rng.IntN(2), GPUsPerNode: 2 << rng.IntN(2)},
			GlobalBatch:   1 << rng.IntN(5),
			MaxMicroBatch: 1 << rng.IntN(2),
			CrossNodeTP:   rng.IntN(2) == 0,
			Exhaustive:    rng.IntN(3) == 0,
		}
		r, err := Run(cfg, 2, nil)
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		var best *Plan
		for _, p := range r.Plans {
			if err := p.Scenario.Validate(); err != nil {
				t.Errorf("%+v: returned invalid plan %s: %v", cfg, p.Scenario.Query().Encode(), err)
			}
			if p.Status == Best {
				best = p
			}
		}
		if best == nil {
			t.Logf("%s on %d GPUs, batch %d: no plan fits", cfg.Model.Preset, cfg.GPUs(), cfg.GlobalBatch)
			continue
		}
		if !best.Fits || r.Plans[0] != best {
			t.Errorf("%+v: the best plan does not fit or is not first", cfg)
		}
		for _, p := range r.Plans {
			if p.Result != nil && p.Fits && p.Result.Iteration < best.Result.Iteration {
				t.Errorf("%+v: %s beats the best", cfg, p.Scenario.Query().Encode())
			}
		}
	}
}

// TestSimulationBudget: a capped search runs exactly MaxSimulations
// simulations, marks each contender it did not reach Unsimulated with a
// bound below its best, and its floor holds: the uncapped search's best is
// no faster than min(capped best, floor). The outcome does not depend on
// the number of workers.
func TestSimulationBudget(t *testing.T) {
	// Micro-batches of one sequence: several plans' bounds are under the
	// best run (with two, the bound rules out all but a few).
	cfg := small()
	cfg.MaxMicroBatch = 1
	full := mustRun(t, cfg, 2)
	cfg.MaxSimulations = 1
	r := mustRun(t, cfg, 2)
	if r.Progress.Simulated != 1 || r.Progress.Unsimulated == 0 {
		t.Fatalf("capped at 1: %d simulated, %d unsimulated; want 1 and some left", r.Progress.Simulated, r.Progress.Unsimulated)
	}
	best := r.Plans[0]
	if best.Status != Best {
		t.Fatalf("first plan is %s", best.Status)
	}
	var floor units.Time
	for _, p := range r.Plans {
		if p.Status != Unsimulated {
			continue
		}
		if p.Estimate.LowerBound >= best.Result.Iteration || p.Reason != "budget" || !strings.Contains(p.Why, "budget") {
			t.Errorf("unsimulated plan: bound %v against the best %v, reason %q", p.Estimate.LowerBound, best.Result.Iteration, p.Reason)
		}
		if floor == 0 || p.Estimate.LowerBound < floor {
			floor = p.Estimate.LowerBound
		}
	}
	if r.Floor != floor {
		t.Errorf("Floor %v; the smallest unsimulated bound is %v", r.Floor, floor)
	}
	if got, limit := full.Plans[0].Result.Iteration, min(best.Result.Iteration, r.Floor); got < limit {
		t.Errorf("the uncapped best %v beats the capped search's certificate %v", got, limit)
	}
	one := mustRun(t, cfg, 1)
	if a, b := one.Plans[0].Scenario.Query().Encode(), best.Scenario.Query().Encode(); a != b || one.Floor != r.Floor {
		t.Errorf("1 worker: best %s, floor %v; 2 workers: %s, %v", a, one.Floor, b, r.Floor)
	}
	t.Logf("capped: best %v, floor %v; uncapped best %v", best.Result.Iteration, r.Floor, full.Plans[0].Result.Iteration)
	cfg.MaxSimulations = -1
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "max_simulations") {
		t.Errorf("MaxSimulations −1: error %v; want one naming max_simulations", err)
	}
}

// TestEnumerateExpertLayouts: for a mixture of experts the planner tries
// expert tensor parallelism below tp (etp 1 with tp 2), with which an
// expert-parallel group spans tensor-parallel ranks (ep 4 on 2 replicas),
// and every layout it tries is valid.
func TestEnumerateExpertLayouts(t *testing.T) {
	cfg := Config{Model: scenario.Model{Preset: "mixtral-8x7b", SeqLen: 4096},
		Cluster: scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: 8}, GlobalBatch: 16, MaxMicroBatch: 1}
	m, err := cfg.Model.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range enumerate(cfg, m) {
		q := p.Scenario.Parallel
		if q.TP == 2 && q.ETP == 1 && q.EP == 4 && q.DP == 2 {
			found = true
		}
		if _, err := q.Plan().Check(8, 8); err != nil {
			t.Errorf("enumerated an invalid layout %+v: %v", q, err)
		}
	}
	if !found {
		t.Error("no plan with tp 2, etp 1, ep 4 over 2 replicas")
	}
}
