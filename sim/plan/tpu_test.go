//go:build !js

package plan

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
)

// TestPlanOnTPUSlice: the planner takes a TPU slice and searches its
// meshes: every plan is a valid parallel.mesh on all the slice's chips,
// without pipeline stages, both data (ZeRO 0–2) and fsdp (ZeRO-3) meshes
// are tried, and the best is simulated; a slice that does not fit its pod
// is refused naming cluster.topology.
func TestPlanOnTPUSlice(t *testing.T) {
	cfg := Config{Model: scenario.Model{Preset: "gpt3-1.3b"}, Cluster: scenario.Cluster{GPU: "tpu-v5p", Topology: "4x4x4"},
		GlobalBatch: 64, MaxMicroBatch: 2}
	if n := cfg.GPUs(); n != 64 {
		t.Fatalf("GPUs() = %d on a 4x4x4 slice; want 64", n)
	}
	r := mustRun(t, cfg, 2)
	if best := r.Plans[0]; best.Status != Best || best.Result == nil {
		t.Fatalf("first plan %+v; want the best, simulated", best)
	}
	kinds := map[string]bool{}
	for _, p := range r.Plans {
		q := p.Scenario.Parallel
		m := q.Mesh
		if !m.Set() || q.PP != 1 || max(m.Data, 1)*max(m.FSDP, 1)*max(m.Seq, 1)*max(m.Model, 1) != 64 {
			t.Fatalf("plan %s: mesh %+v pp %d; want a mesh of the 64 chips and no pipeline", p.Scenario.Query().Encode(), m, q.PP)
		}
		if err := p.Scenario.Validate(); err != nil {
			t.Errorf("plan %s: %v", p.Scenario.Query().Encode(), err)
		}
		switch {
		case m.FSDP > 1:
			kinds["fsdp"] = true
		case m.Data > 1:
			kinds["data"] = true
		}
		if m.Model > 1 {
			kinds["model"] = true
		}
	}
	if !kinds["fsdp"] || !kinds["data"] || !kinds["model"] {
		t.Errorf("meshes tried: %v; want data, fsdp and model axes among them", kinds)
	}
	cfg.Cluster.Topology = "4x4x40"
	if _, err := Run(cfg, 1, nil); err == nil || !strings.Contains(err.Error(), "cluster.topology") {
		t.Errorf("a 4x4x40 v5p slice: error %v; want one naming cluster.topology", err)
	}
}

// TestPruningMatchesExhaustiveOnSlices: on small TPU slices the pruned
// search, which also tries one mesh layout of each set that runs alike,
// finds a best plan as fast as the exhaustive one, which simulates every
// plan that fits under every order of the torus axes; and every simulated
// plan's bounds are below its run.
func TestPruningMatchesExhaustiveOnSlices(t *testing.T) {
	layouts := map[string]bool{}
	for _, c := range []struct {
		model, gpu, topology string
		batch, slices        int
	}{
		// Small batches leave few data-parallel ways: model and seq axes,
		// whose layout matters, win.
		{"megatron-7.5b", "tpu-v5e", "16x2", 2, 1},
		{"megatron-7.5b", "tpu-v5e", "16x2", 4, 1},
		{"megatron-1.7b", "tpu-v5p", "2x2x4", 2, 1},
		{"megatron-3.6b", "tpu-v4", "4x4x4", 4, 1},
		{"gpt3-1.3b", "tpu-v5e", "8x4", 8, 1},
		// Two slices: the data axis spans the DCN, and FSDP's gathers and
		// reduce-scatters over it are hierarchical.
		{"megatron-1.7b", "tpu-v5p", "2x2x4", 4, 2},
	} {
		cfg := Config{Model: scenario.Model{Preset: c.model}, Cluster: scenario.Cluster{GPU: c.gpu, Topology: c.topology, Slices: c.slices},
			GlobalBatch: c.batch, MaxMicroBatch: 2}
		fast := mustRun(t, cfg, 2)
		cfg.Exhaustive = true
		all := mustRun(t, cfg, 2)
		fb, ab := bestOf(fast), bestOf(all)
		switch {
		case fb == nil || ab == nil:
			t.Errorf("%s on %s %s: pruned best %v, exhaustive best %v; want both", c.model, c.gpu, c.topology, fb, ab)
		case fb.Result.Iteration != ab.Result.Iteration:
			t.Errorf("%s on %s %s: the pruned search's best %s runs %v; the exhaustive search's %s runs %v", c.model, c.gpu, c.topology,
				fb.Scenario.Query().Encode(), fb.Result.Iteration, ab.Scenario.Query().Encode(), ab.Result.Iteration)
		}
		for _, p := range all.Plans {
			if p.Result == nil {
				continue
			}
			layouts[p.Scenario.Parallel.Mesh.Layout] = true
			if e := p.Estimate; e.Work > p.Result.Iteration || e.LowerBound > p.Result.Iteration {
				t.Errorf("%s: work bound %v, bound %v, simulated %v; want both bounds ≤ simulated", p.Scenario.Query().Encode(), e.Work, e.LowerBound, p.Result.Iteration)
			}
		}
		if fb != nil && fb.Scenario.Parallel.Mesh.Layout != "" {
			layouts["best not xyz"] = true
		}
		t.Logf("%s on %s %s: best %s %v; pruned search %d plans, exhaustive %d", c.model, c.gpu, c.topology,
			fb.Scenario.Query().Encode(), fb.Result.Iteration, len(fast.Plans), len(all.Plans))
	}
	if len(layouts) < 4 || !layouts["best not xyz"] {
		t.Errorf("the exhaustive searches simulated layouts %v; want several, and a best plan on another order than xyz", layouts)
	}
}
