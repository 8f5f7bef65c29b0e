package nccltest

import (
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/strategytest"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

func TestCollectiveScenarioMatchesTheMeasurement(t *testing.T) {
	s := strategytest.Load(t, "../scenario/testdata/allreduce-2x4-h100.yaml")
	tl, err := Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	topo, err := Topology(s)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := MeasureCollective(topo, "all_reduce", "ring", collective.Config{Ranks: 8, Nodes: 2, PerNode: 4, Bytes: 64 * units.MiB}, taskgraph.Detailed)
	if err != nil {
		t.Fatal(err)
	}
	if tl.End != m.Time || len(tl.Switches) == 0 || len(tl.Spans) != 0 {
		t.Errorf("scenario: end %v, %d switches, %d spans; measurement %v", tl.End, len(tl.Switches), len(tl.Spans), m.Time)
	}
}

func TestEveryCollectiveOpRunsAsAScenario(t *testing.T) {
	for _, op := range collective.Ops() {
		for _, algo := range collective.Algorithms(op) {
			s := scenario.Default()
			s.Strategy, s.GPUs, s.Collective.Op, s.Collective.Algorithm, s.Collective.Size = Name, 8, op, algo, units.MiB
			if op == "sendrecv" {
				s.GPUs = 2
			}
			if algo == "hierarchical" || algo == "pxn" {
				s.Cluster = scenario.Cluster{GPU: "a100-sxm-80gb", Nodes: 2, GPUsPerNode: 4}
			}
			if err := s.Validate(); err != nil {
				t.Errorf("%s/%s: %v", op, algo, err)
				continue
			}
			tl, err := Simulate(s)
			if err != nil {
				t.Errorf("%s/%s: %v", op, algo, err)
				continue
			}
			if err := tl.Validate(); err != nil || tl.End <= 0 {
				t.Errorf("%s/%s: end %v, %v", op, algo, tl.End, err)
			}
		}
	}
}

// TestScenarioProtocolMatchesTheMeasurement: collective.protocol runs the
// scenario's collective as MeasureWith runs it with the same protocol —
// the same pick for "auto", the same time — and records the protocol.
func TestScenarioProtocolMatchesTheMeasurement(t *testing.T) {
	for _, tc := range []struct{ algo, proto string }{{"ring", "ll128"}, {"ring", "ll"}, {"auto", "auto"}, {"tree", "simple"}} {
		s := strategytest.Load(t, "../scenario/testdata/allreduce-2x4-h100.yaml")
		s.Collective.Algorithm, s.Collective.Protocol = tc.algo, tc.proto
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		tl, err := Simulate(s)
		if err != nil {
			t.Fatalf("%s/%s: %v", tc.algo, tc.proto, err)
		}
		topo, err := Topology(s)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := MeasureWith(topo, "all_reduce", tc.algo, Options{Protocol: tc.proto}, Config(s), taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		c := tl.Collectives[0]
		if tl.End != m.Time || c.Protocol != m.Protocol || c.Algorithm != m.Algorithm || (tc.proto != "auto" && c.Protocol != tc.proto) {
			t.Errorf("%s/%s: scenario %s/%s in %v; measurement %s/%s in %v", tc.algo, tc.proto, c.Algorithm, c.Protocol, tl.End, m.Algorithm, m.Protocol, m.Time)
		}
	}
}
