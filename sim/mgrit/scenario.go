package mgrit

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Name is the strategy key's value of layer-parallel multigrid training.
const Name = "layer-parallel"

// section is the key of the scenario's mgrit section.
const section = "mgrit"

// Limits of the mgrit section.
const (
	MaxGPUs       = 64
	MaxLayers     = 4096
	MaxCoarsen    = 64
	MaxIterations = 20
)

// Settings is the mgrit section of a scenario.
type Settings struct {
	// Layers is the network's depth, L: at least coarsen × GPUs, at most
	// MaxLayers.
	Layers int
	// Coarsen is the coarsening factor m, 2..MaxCoarsen: every m-th layer
	// is a coarse point.
	Coarsen int
	// Iterations is the MGRIT iterations of each solve, K,
	// 1..MaxIterations.
	Iterations int
	// Relax is "fcf" (FCF-relaxation) or "f" (F-relaxation).
	Relax string
	// State is the bytes of one layer's state (a message), 1B..1GiB.
	State units.Bytes
}

// DefaultSettings is 1,024 layers coarsened by 4, two FCF iterations, a
// 1 MiB state.
func DefaultSettings() Settings {
	return Settings{Layers: 1024, Coarsen: 4, Iterations: 2, Relax: "fcf", State: units.MiB}
}

// Edit changes s's mgrit section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }

// SettingsOf is s's mgrit section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

var rows = []scenario.Row{
	{Key: "layers", Param: "mg_layers", Help: "network depth, e.g. 1024", Field: "Layers"},
	{Key: "coarsen", Param: "mg_coarsen", Help: "coarsening factor, e.g. 4", Field: "Coarsen"},
	{Key: "iterations", Param: "mg_iters", Help: "MGRIT iterations a solve, e.g. 2", Field: "Iterations"},
	{Key: "relax", Param: "mg_relax", Help: "fcf or f", Field: "Relax"},
	{Key: "state", Param: "mg_state", Help: "a layer's state, e.g. 1MiB", Field: "State"},
}

// Strategy is layer-parallel multigrid training as a strategy.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the mgrit section; a layer step's times are
// compute.forward and compute.backward, the links the link section.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}},
		Claims: []string{section}, MinGPUs: 1, MaxGPUs: MaxGPUs}
}

// Check checks the mgrit section against the GPUs.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	y, n := SettingsOf(s), s.NumGPUs()
	if y.Coarsen < 2 || y.Coarsen > MaxCoarsen {
		bad("mgrit.coarsen", "is %d; allowed 2..%d", y.Coarsen, MaxCoarsen)
	}
	if lo := max(y.Coarsen, 2) * max(n, 1); y.Layers < lo || y.Layers > MaxLayers {
		bad("mgrit.layers", "is %d; allowed %d..%d (at least mgrit.coarsen × gpus)", y.Layers, lo, MaxLayers)
	}
	if y.Iterations < 1 || y.Iterations > MaxIterations {
		bad("mgrit.iterations", "is %d; allowed 1..%d", y.Iterations, MaxIterations)
	}
	if y.Relax != "fcf" && y.Relax != "f" {
		bad("mgrit.relax", "is %q; allowed fcf or f", y.Relax)
	}
	if y.State < 1 || y.State > units.GiB {
		bad("mgrit.state", "is %v; allowed 1B..1GiB", y.State)
	}
	if s.Cluster.GPU != "" {
		bad("cluster.gpu", "is %q; layer-parallel runs on the link section's ideal switch, leave the cluster section empty", s.Cluster.GPU)
	}
}

// Title is e.g. "Layer-parallel MGRIT: 1024 layers on 16 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	return fmt.Sprintf("Layer-parallel MGRIT: %d layers on %d GPUs", SettingsOf(s).Layers, s.NumGPUs())
}

// Describe is e.g. "1024 layers on 16 GPUs, coarsened by 4, 2 FCF
// iterations a solve".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := SettingsOf(s)
	return fmt.Sprintf("%d layers on %d GPUs, coarsened by %d, %d %s iterations a solve", y.Layers, s.NumGPUs(), y.Coarsen, y.Iterations, y.Relax)
}
