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
