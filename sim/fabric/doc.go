// Package fabric moves bytes over a topology's links.
//
// The model is a fluid one with max-min fair sharing, the standard model of
// flow-level network simulators: a message first waits out the latency of
// its path (the sum of its links' latencies, α), then streams its bytes as a
// flow. At every instant each link's bandwidth is divided among the flows
// crossing it by progressive filling: the most constrained link's flows get
// an equal share, which is frozen, and the rest of the capacity goes to the
// other flows, and so on. Rates change only when a flow starts or ends, so
// the run stays event-driven.
//
// On an uncontended path a message of S bytes therefore takes exactly
// α + S/B (B the slowest link of its path), the α–β model the collective
// formulas assume; two flows crossing one link each get half of it, which is
// how contention shows.
//
// Rounding: a flow's finishing time is rounded to the nanosecond once, by
// units.Round; the bytes still to send are tracked in float64. All
// arithmetic happens in a fixed order, so runs are deterministic.
package fabric
