// Package swarm simulates SWARM parallelism (Ryabinin, Dettmers, Diskin
// and Borzunov, "SWARM Parallelism: Training Large Models Can Be
// Surprisingly Communication-Efficient", ICML 2023): the model is cut into
// swarm.stages stages, each served by a pool of peers of different speeds
// (sync.speeds) on slow links (link.bandwidth, link.latency). There are no
// fixed pipelines: a microbatch's forward goes, stage by stage, to
// whichever peer of the next stage would finish it first (the paper's
// stochastic wiring, made deterministic here: the earliest estimated
// finish, ties to the lowest peer), and its backward comes back through
// the same peers, which hold its activations.
//
// Throughput. With enough microbatches in flight and communication
// overlapped, stage s finishes microbatches at R_s / (F + B), where R_s is
// the summed speed of its live peers and F + B a microbatch's forward and
// backward on a peer of speed 1 (compute.forward, compute.backward), so
// the swarm trains at
//
//	X = min_s R_s / (F + B)  microbatches per second,
//
// the closed form the caption and the tests hold the measured rate to.
//
// Rebalancing (the paper's adaptive rebalancing): every swarm.rebalance
// the peers compare stage rates; one peer of the fastest stage a moves to
// the slowest b when a keeps more than b had (R_a − v > R_b), choosing the
// peer that leaves the pair's minimum highest. It first drains (finishes
// the backwards it owes), then downloads stage b's parameters
// (swarm.stage_bytes over its link), drawn as a replanning band labelled
// with its new stage. Each move raises the sorted list of stage rates, so
// rebalancing stops; with equal peers it reaches the balanced split.
//
// Faults (the faults section): a fail_stop peer leaves the swarm; each
// microbatch it touched is lost and its trainer sends it again from the
// first stage. Rebalancing then moves peers to the stage that lost them.
// (Slow peers are peers of low sync.speeds.)
//
// Not modelled: the all-reduce of each stage's gradients at the optimizer
// step (the run is one long accumulation of swarm.microbatches), the
// sharing of a peer's link by several messages (each message takes
// α + bytes/β), and SWARM's randomness.
package swarm
