package plan

import "paraplay/sim/scenario"

// The browser's planner lays a slice's meshes on x, y, z only (the
// layout search is host-only, layouts.go, to keep the wasm small) and
// labels them by their degrees.

func meshLayouts(scenario.Scenario, int, int, int, bool) []string { return []string{""} }

func meshLabel(scenario.Mesh) string { return "" }
