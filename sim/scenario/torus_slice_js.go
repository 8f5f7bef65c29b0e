//go:build js

package scenario

import "paraplay/sim/cluster"

// Slice reports no TPU slice in the browser build, which refuses
// scenarios that name one (torus_slice.go).
func (s *Scenario) Slice() (cluster.Slice, bool) { return cluster.Slice{}, false }
