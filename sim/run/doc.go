// Package run executes a scenario: it turns the scenario into a graph of
// compute spans and transfers, plays that graph on the topology with the
// event engine, and returns the timeline. It is the only package that ties
// the engine, the fabric, the collectives and the scenario together.
package run
