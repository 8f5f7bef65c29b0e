//go:build js

package plan

import "paraplay/sim/scenario"

// The browser's planner labels a slice's meshes by their degrees and
// layout (Plan.Label), not by the mesh's axes (layouts_label.go): the
// wasm budget.

func meshLabel(scenario.Mesh) string { return "" }
