// Package sim is the root of ParaPlay's simulator: pure Go, deterministic,
// with no I/O, no wall clock, no goroutines inside a run and no global random
// source. ARCHITECTURE.md at the repository's root is its map.
//
// Data flows one way:
//
//	scenario (YAML/JSON/URL) → run: the registry → a strategy's Simulate
//	  (a task graph played by taskgraph on the topology, or analytic) → timeline
//	                                                          │
//	                         scene: timeline + instant t → draw list → SVG / browser
//
// Units: time is units.Time, an int64 count of nanoseconds; sizes are
// units.Bytes; link speeds are units.Bandwidth in bytes per second. Every
// conversion from a real-valued cost to Time goes through units.Round, so
// rounding happens in exactly one place.
//
// Determinism contract: the same scenario (including its seed) always yields
// a byte-identical timeline and trace. Ties between events at the same
// instant are broken by the order in which they were scheduled.
package sim
