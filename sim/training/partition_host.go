//go:build !js

package training

import "paraplay/sim/scenario"

// StageLayers is the layers of each of a plan's stages model stages, as
// the simulator deals them out (stageLayers): what a launch configuration
// must reproduce. The browser exports no plan, so it is host-only.
func StageLayers(p scenario.Parallel, layers, stages int) ([]int, error) {
	return stageLayers(p, layers, stages)
}
