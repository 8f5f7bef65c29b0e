//go:build !js

package plan

import (
	"strconv"

	"paraplay/sim/scenario"
)

// meshLabel names a TPU plan's mesh and the torus axes it fills, "" off a
// slice.
func meshLabel(m scenario.Mesh) string {
	if !m.Set() {
		return ""
	}
	o, _ := m.Order()
	l := "mesh"
	for i, a := range [4]int{m.Data, m.FSDP, m.Seq, m.Model} {
		l += [4]string{" data ", " × fsdp ", " × seq ", " × model "}[i] + strconv.Itoa(max(a, 1))
	}
	return l + " on " + axesName(o)
}
