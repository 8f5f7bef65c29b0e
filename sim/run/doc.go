// Package run executes a scenario: it turns the scenario into a graph of
// compute spans and transfers, plays that graph on the topology with the
// event engine, and returns the timeline. It is the only package that ties
// the engine, the fabric, the collectives and the scenario together.
//
// A training scenario with faults, stragglers, variable-length batches or
// several iterations is played step by step (faults.go, recovery.go): each
// step is one simulated iteration, faults scale its compute or cut it
// short, recovery policies stall, restart or drop replicas between steps,
// and the steps are joined into one timeline with a record per iteration.
// Mixed GPU types and balanced stage partitions live in hetero.go.
package run
