// Package strategy is the seam every strategy of ParaPlay implements: one
// interface (Strategy) that a strategy's package satisfies and the
// registry in package run lists. Through it the CLI, the browser app, the
// site and the tests treat data parallelism, training, a parameter server
// or RLHF alike, and a new strategy joins them by adding its package and
// one line to the registry (ARCHITECTURE.md, "How to add a strategy").
//
// A strategy is, in order of the data's flow:
//
//   - its scenario half, scenario.Kind: the sections and shared keys it
//     reads, how to check them, how to name a run;
//   - Work: the bound on what Simulate costs, from the scenario's fields,
//     checked against a budget before anything runs (package budget);
//   - Simulate: a checked scenario in, a timeline out (an event-driven
//     strategy plays a task graph on package taskgraph; an analytic one,
//     such as rlhf, says in its doc why it needs no events);
//   - its summary and picture, which travel with the timeline: the
//     strategy's record on the timeline (timeline.Record) writes its part of
//     the summary, and the scene draws what the record says;
//   - Caption: the figures a demo's caption shows, each closed form beside
//     the simulated figure it predicts (Check), as data that the site only
//     formats and the tests compare.
//
// The package holds the interface and the caption's vocabulary only; it
// imports scenario and timeline and nothing that simulates.
package strategy
