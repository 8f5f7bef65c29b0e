//go:build js

package scenario

import "paraplay/sim/hw"

// validateTorus: TPU slices are host-only for now (torus_check.go), to
// keep the browser build small; a scenario that names one is refused.
func (s *Scenario) validateTorus(_ Keys, bad Reporter) {
	c := s.Cluster
	_, tpu := hw.LookupPod(c.GPU)
	if tpu || c.Topology != "" || c.Slices > 1 || c.Twisted || c.Wraparound != "" || s.Parallel.Mesh.Set() {
		bad("cluster.topology", "TPU slices run in the command line (paraplay run); the browser build leaves them out")
	}
}
