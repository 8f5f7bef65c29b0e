package placement

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/timeline"
	"paraplay/sim/training"
	"paraplay/sim/workload"
)

// cluster is the tests' irregular cluster: four one-GPU servers on
// InfiniBand NDR, two with H100s and two with A100s, and server 1's port
// slowed to slow of its bandwidth (a link_degrade at time 0).
var cluster = struct {
	gpus []string
	slow float64
}{[]string{"h100-sxm", "h100-sxm", "a100-sxm-80gb", "a100-sxm-80gb"}, 0.01}

const efficiency = 0.5 // training.efficiency: both price FLOPs at this share of peak

func problem(t *testing.T) Problem {
	t.Helper()
	m, err := workload.LookupModel("llama3-8b")
	if err != nil {
		t.Fatal(err)
	}
	m.Layers, m.SeqLen = 16, 2048
	ib, err := hw.LookupLink("ib-ndr")
	if err != nil {
		t.Fatal(err)
	}
	p := Problem{Model: m, Microbatch: 1, Microbatches: 8, Recompute: workload.Recompute("none")}
	for i, name := range cluster.gpus {
		g, err := hw.LookupGPU(name)
		if err != nil {
			t.Fatal(err)
		}
		g.Efficiency = efficiency
		port := float64(ib.Effective())
		if i == 1 {
			port *= cluster.slow
		}
		p.Servers = append(p.Servers, Server{GPU: g, Port: port, Alpha: ib.Latency.Seconds()})
	}
	return p
}

// scenarioOf is plan pl as a training scenario: the servers in stage
// order (their GPUs in cluster.node_gpus, the slow port a link_degrade
// on the node that runs server 1), the layers per stage.
func scenarioOf(pl Plan) string {
	gpus := make([]string, len(pl.Map))
	slow := 0
	for k, s := range pl.Map {
		gpus[k] = cluster.gpus[s]
		if s == 1 {
			slow = k
		}
	}
	layers := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(pl.Layers)), ","), "[]")
	return fmt.Sprintf("model: {preset: llama3-8b, layers: 16, seq_len: 2048}\n"+
		"cluster: {gpu: h100-sxm, nodes: 4, gpus_per_node: 1, inter: ib-ndr, node_gpus: [%s]}\n"+
		"parallel: {dp: 1, pp: 4, schedule: hetero-1f1b, microbatches: 8, layers_per_stage: [%s], recompute: none}\n"+
		"training: {efficiency: %g}\n"+
		"faults:\n  - {at: 0s, kind: link_degrade, node: %d, factor: %g}\n", strings.Join(gpus, ", "), layers, efficiency, slow, cluster.slow)
}

// pipelinePhase is the simulated run's first forward to its last
// backward.
func pipelinePhase(t *testing.T, yaml string) float64 {
	t.Helper()
	strategytest.Register(training.Strategy{})
	s, err := scenario.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	tl := strategytest.MustRun(t, training.Simulate, s)
	start, end := math.Inf(1), 0.0
	for _, sp := range tl.Spans {
		if sp.Kind == timeline.Forward || sp.Kind == timeline.Backward || sp.Kind == timeline.BackwardWeight {
			start, end = min(start, sp.Start.Seconds()), max(end, sp.End.Seconds())
		}
	}
	return end - start
}

// TestMakespanClosedForm holds the closed form to the simulated pipeline
// of the balanced and the planned placements, and the plan to no more
// than the balanced one, simulated and in closed form.
func TestMakespanClosedForm(t *testing.T) {
	p := problem(t)
	best, bal, err := Search(p)
	if err != nil {
		t.Fatal(err)
	}
	simBest, simBal := pipelinePhase(t, scenarioOf(best)), pipelinePhase(t, scenarioOf(bal))
	t.Logf("balanced %v %v: closed form %.4g s, simulated %.4g s", bal.Map, bal.Layers, bal.Makespan, simBal)
	t.Logf("planned  %v %v: closed form %.4g s, simulated %.4g s", best.Map, best.Layers, best.Makespan, simBest)
	// The closed form is a lower bound (every resource's chain), met
	// within 3% when a GPU sets the pace; when a port does, the ports'
	// order constraints leave gaps the bound does not see (7% here).
	for _, c := range []struct {
		name      string
		want, got float64
		tol       float64
	}{{"balanced", bal.Makespan, simBal, 0.10}, {"planned", best.Makespan, simBest, 0.03}} {
		if c.got < c.want*(1-1e-3) || c.got > c.want*(1+c.tol) {
			t.Errorf("%s: simulated %.4g s, closed form %.4g s: want the form below it by at most %g", c.name, c.got, c.want, c.tol)
		}
	}
	if best.Makespan > bal.Makespan || simBest > simBal {
		t.Errorf("planned %.4g s (simulated %.4g) is slower than balanced %.4g s (%.4g)", best.Makespan, simBest, bal.Makespan, simBal)
	}
}

// TestSearchErrors: bad problems are errors naming what is wrong.
func TestSearchErrors(t *testing.T) {
	p := problem(t)
	for _, c := range []struct {
		name string
		edit func(*Problem)
		want string
	}{
		{"one server", func(p *Problem) { p.Servers = p.Servers[:1] }, "1 servers"},
		{"few layers", func(p *Problem) { p.Model.Layers = 3 }, "3 layers for 4 stages"},
		{"no port", func(p *Problem) { p.Servers[2].Port = 0 }, "server 2"},
		{"no microbatches", func(p *Problem) { p.Microbatches = 0 }, "microbatches 0"},
	} {
		q := p
		q.Servers = append([]Server(nil), p.Servers...)
		c.edit(&q)
		if _, _, err := Search(q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestPrintScenarios logs the two plans as training scenarios (the
// pipeline article's demos are these).
func TestPrintScenarios(t *testing.T) {
	best, bal, err := Search(problem(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("balanced:\n%s\nplanned:\n%s", scenarioOf(bal), scenarioOf(best))
}
