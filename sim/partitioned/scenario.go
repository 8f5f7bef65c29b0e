package partitioned

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// Name is the strategy key's value of partitioned pretraining.
const Name = "partitioned"

// section is the key of the scenario's partitioned section.
const section = "partitioned"

// MaxSteps bounds pre_steps and full_steps: the run repeats a simulated
// iteration in place for each.
const MaxSteps = 64

// Settings is the partitioned section of a scenario.
type Settings struct {
	// Parts is k, 2..64, the sub-models; it divides parallel.dp and the
	// model's hidden size, heads, key-value heads and feed-forward width.
	Parts int
	// PreSteps is phase 1's steps of every sub-model, 1..MaxSteps.
	PreSteps int
	// FullSteps is phase 3's steps of the full model, 1..MaxSteps.
	FullSteps int
}

// DefaultSettings is two sub-models, four steps apart, two together.
func DefaultSettings() Settings { return Settings{Parts: 2, PreSteps: 4, FullSteps: 2} }

// SettingsOf is s's partitioned section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

var rows = []scenario.Row{
	{Key: "parts", Param: "parts", Help: "sub-models k, 2–64", Field: "Parts"},
	{Key: "pre_steps", Param: "pre_steps", Help: "steps of the sub-models, 1–64", Field: "PreSteps"},
	{Key: "full_steps", Param: "full_steps", Help: "steps of the full model, 1–64", Field: "FullSteps"},
}

// Strategy is partitioned pretraining as a strategy of the scenario.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the partitioned section and the training sections it reads.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}},
		Uses: []string{"model", "parallel", "training"}, MinGPUs: 2}
}

// Check checks the section, the plan (data parallelism only, k groups of
// whole nodes or of whole shares of one node) and the two phases as
// training runs.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	c := SettingsOf(s)
	if c.Parts < 2 || c.Parts > 64 {
		bad("partitioned.parts", "is %d; allowed 2..64", c.Parts)
		return
	}
	if c.PreSteps < 1 || c.PreSteps > MaxSteps {
		bad("partitioned.pre_steps", "is %d; allowed 1..%d", c.PreSteps, MaxSteps)
	}
	if c.FullSteps < 1 || c.FullSteps > MaxSteps {
		bad("partitioned.full_steps", "is %d; allowed 1..%d", c.FullSteps, MaxSteps)
	}
	if s.Model.IsSynthetic() {
		bad("model.synthetic", "is set; partitioned pretraining splits a real model's width (give model.preset or its shape)")
		return
	}
	p := s.Parallel
	for _, d := range []struct {
		key string
		v   int
	}{{"parallel.tp", p.TP}, {"parallel.pp", p.PP}, {"parallel.cp", p.CP}, {"parallel.ep", p.EP}} {
		if d.v != 1 {
			bad(d.key, "is %d; partitioned pretraining trains with data parallelism only: set it to 1", d.v)
			return
		}
	}
	sub, full, err := phases(*s)
	if err != nil {
		bad("partitioned.parts", "%v", err)
		return
	}
	training.Strategy{}.Check(&full, bad)
	training.Strategy{}.Check(&sub, func(field, format string, args ...any) {
		bad(field, "in phase 1, where each sub-model trains: "+format, args...)
	})
}

// phases are the training scenarios of s's two simulated iterations: a
// sub-model on its dp/k GPUs, and the full model on all of them, both at
// analytic fidelity.
func phases(s scenario.Scenario) (sub, full scenario.Scenario, err error) {
	k := SettingsOf(&s).Parts
	full = s
	full.Strategy, full.Fidelity, full.Iterations = training.Name, "analytic", 1
	scenario.Put(&full, section, DefaultSettings()) // a training run owns no partitioned section
	m, err := s.Model.Resolve()
	if err != nil {
		return sub, full, fmt.Errorf("model: %w", err)
	}
	kv, ffn := m.KVHeadCount(), m.FFNWidth()
	if m.IsMoE() {
		return sub, full, fmt.Errorf("the model %s is a mixture of experts; partitioned pretraining splits a dense model's width", m.Name)
	}
	if m.Hidden%k != 0 || m.Heads%k != 0 || kv%k != 0 || ffn%k != 0 {
		return sub, full, fmt.Errorf("%d does not divide the model's hidden size %d, heads %d, key-value heads %d and feed-forward width %d: each sub-model takes a k-th of each",
			k, m.Hidden, m.Heads, kv, ffn)
	}
	n, per := s.NumGPUs(), s.PerNode()
	if s.Parallel.DP%k != 0 {
		return sub, full, fmt.Errorf("%d does not divide parallel.dp %d: each sub-model trains on dp/k GPUs", k, s.Parallel.DP)
	}
	g := n / k
	if g < 1 || n%k != 0 || per < 1 {
		return sub, full, fmt.Errorf("%d does not divide the %d GPUs into groups", k, n)
	}
	sub = full
	switch {
	case g%per == 0 && s.Cluster.Nodes%k == 0:
		sub.Cluster.Nodes = s.Cluster.Nodes / k
	case per%g == 0 && s.Cluster.Nodes <= 1:
		sub.Cluster.Nodes, sub.Cluster.GPUsPerNode = 1, g
		sub.GPUs = g
	default:
		return sub, full, fmt.Errorf("%d groups of %d GPUs do not fall on whole nodes of %d, or within one node", k, g, per)
	}
	sub.Parallel.DP = s.Parallel.DP / k
	sub.Model.Hidden, sub.Model.Heads, sub.Model.KVHeads, sub.Model.FFNHidden = m.Hidden/k, m.Heads/k, kv/k, ffn/k
	return sub, full, nil
}

// Title names a run.
func (Strategy) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("Partitioned pretraining, %d sub-models", SettingsOf(s).Parts)
}

// Describe is a one-line summary.
func (Strategy) Describe(s *scenario.Scenario) string {
	c := SettingsOf(s)
	return fmt.Sprintf("%d sub-models of width 1/%d for %d steps, merged, then %d steps of the full model on %d GPUs",
		c.Parts, c.Parts, c.PreSteps, c.FullSteps, s.NumGPUs())
}
