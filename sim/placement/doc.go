// Package placement plans a pipeline on an irregular cluster: which server
// runs which stage, and how many layers each stage holds, when the
// servers' GPUs and network ports differ. It is the question of Luo et
// al. 2022 ("Efficient Pipeline Planning for Expedited Distributed DNN
// Training", INFOCOM; papers.md S0-10), who partition a model, map its
// stages to GPUs of arbitrary connectivity and order the microbatches,
// for synchronous pipelines.
//
// ParaPlay's version is small and its own. A plan is rated by a closed
// form of a synchronous 1F1B pipeline whose messages are stages too
// (Makespan): the first microbatch's forward and the last one's backward
// cross every stage and every link once, and the other m−1 microbatches
// follow at the pace of the busiest resource, a stage's compute or a
// server's network port, which carries one activation and one gradient
// per microbatch for a middle stage and one of them for an end stage.
// Search tries every map of servers to stages (p ≤ MaxServers) and, for
// each, the layer split that minimises the slowest stage (the greedy of
// package training's balanced partition), and keeps the plan of the
// smallest makespan. The balanced plan it is compared with is the
// identity map with that split: ParaPlay's parallel.partition: balanced.
//
// For a transformer every boundary carries the same b·s·h activation, so
// the split cannot trade compute for communication as it can for the
// convolutional networks of the paper: the gain comes from the map. The
// microbatch-order scheduler is left out (1F1B's order is kept; see
// training's hetero-1f1b for a re-timed one). Nothing the browser builds
// imports this package; a demo shows a plan it chose as a training
// scenario (stages in server order, cluster.node_gpus, a link_degrade at
// time 0 for the slow port and parallel.layers_per_stage).
package placement
