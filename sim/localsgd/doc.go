// Package localsgd simulates sync.iterations iterations of local SGD: every
// worker computes on its own copy of the model (compute.forward and
// compute.backward over its speed factor, spread by compute.jitter) and
// the copies are averaged with an all-reduce of the model (collective.size,
// collective.algorithm) only every sync.period = H steps (Stich, "Local SGD
// Converges Fast and Communicates Little", ICLR 2019; Su & Chen 2015 for
// the model-averaging practice). H = 1 is synchronous data parallelism: the
// same all-reduce after every backward.
//
// With sync.layers = L > 1 the model is L layer groups of 1/L of its bytes,
// and each is averaged once per period, group g in the period's iteration
// H−1−(g mod H), as soon as its part of the backward is done; the next
// forward through that group waits for it. This is DreamDDP's partial
// synchronisation (Tang et al. 2025): the averaging overlaps the rest of the
// backward and the next forward instead of stopping every worker at the end
// of the period. DreamDDP picks which layers go in which iteration from
// profiled layer times; the round-robin here moves the same bytes per
// period.
//
// The run is a task graph played by package taskgraph, on the hardware
// and with the collective of a lone collective (nccltest.Topology and
// nccltest.Schedule).
package localsgd
