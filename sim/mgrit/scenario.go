package mgrit

import (
	"strconv"

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
	for _, c := range [...]struct {
		key        string
		v, lo, max int64
	}{{"mgrit.coarsen", int64(y.Coarsen), 2, MaxCoarsen}, {"mgrit.layers", int64(y.Layers), int64(max(y.Coarsen, 2) * max(n, 1)), MaxLayers},
		{"mgrit.iterations", int64(y.Iterations), 1, MaxIterations}, {"mgrit.state", int64(y.State), 1, int64(units.GiB)}} {
		if c.v < c.lo || c.v > c.max {
			bad(c.key, "is %d; allowed %d..%d (layers at least coarsen × gpus, state in bytes)", c.v, c.lo, c.max)
		}
	}
	if y.Relax != "fcf" && y.Relax != "f" {
		bad("mgrit.relax", "is %q; allowed fcf or f", y.Relax)
	}
	if s.Cluster.GPU != "" {
		bad("cluster.gpu", "is %q; layer-parallel runs on the link section's ideal switch, leave the cluster section empty", s.Cluster.GPU)
	}
}

// Title is e.g. "Layer-parallel MGRIT: 1024 layers on 16 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	return "Layer-parallel MGRIT: " + strconv.Itoa(SettingsOf(s).Layers) + " layers on " + strconv.Itoa(s.NumGPUs()) + " GPUs"
}

// Describe is e.g. "1024 layers on 16 GPUs, coarsened by 4, 2 FCF
// iterations a solve".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := SettingsOf(s)
	return strconv.Itoa(y.Layers) + " layers on " + strconv.Itoa(s.NumGPUs()) + " GPUs, coarsened by " + strconv.Itoa(y.Coarsen) + ", " + strconv.Itoa(y.Iterations) + " " + y.Relax + " iterations a solve"
}
