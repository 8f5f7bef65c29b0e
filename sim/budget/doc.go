// Package budget is the work budget of a run: an upper bound on what
// simulating a scenario costs (engine events, transfers, spans, the bytes
// of its Chrome trace, the memory it allocates), computed from the
// scenario's fields before anything runs, and the limits the command line
// and the browser hold it to.
//
// Each strategy computes its own bound (strategy.Strategy's Work method,
// with its formulas in comments in its own package) from the counts it
// knows how to bound, spans and transfers, through Of, which derives
// events, trace bytes and memory from them with the constants measured
// here. Every count carries the fields behind it (Count.Why) and what to
// change (Count.Fix), so that a refusal reads like "collective.chunks:
// 512 GPUs × 64 collective.chunks (ring all-reduce) = 33.5 M transfers;
// the browser allows 200 k: lower collective.chunks or use fewer GPUs".
//
// The bounds are tested against the real counts of every testdata
// scenario and of a thousand random ones (sim/run's work test): bound ≥
// actual and bound ≤ 10 × actual.
package budget
