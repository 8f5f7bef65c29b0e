package validate

// tpuCollectiveKind runs the torus collective on a TPU slice as paraplay
// collective --topology does (every message on the slice's ICI links) and
// reports its time in µs.
func tpuCollectiveKind() Kind {
	return Kind{
		Name:     "tpu-collective-time",
		What:     "one torus collective on a TPU slice, every message simulated on its ICI links; time in µs",
		Required: []string{"tpu", "topology", "op", "size"},
		Optional: []string{"axes", "wraparound"},
		Simulate: simulateTPUCollective,
	}
}
