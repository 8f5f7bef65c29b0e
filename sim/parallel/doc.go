// Package parallel lays a hybrid parallel plan onto GPUs: how the world of
// dp·tp·pp·cp ranks is numbered, which ranks form each tensor-, context-,
// pipeline- and data-parallel group, and which plans are valid on a
// cluster.
//
// Rank order. By default tensor parallelism is innermost, then context,
// then pipeline, then data parallelism (rank = ((dp·PP + pp)·CP + cp)·TP +
// tp), the order Megatron-LM uses (Narayanan et al. 2021, §3.3): TP's
// per-layer collectives stay on the NVLink of one node, and pipeline
// neighbours and data-parallel replicas, which talk less often, span nodes.
// Plan.Order overrides it. Expert parallelism does not add ranks: the
// experts are spread over groups of EP ranks taken from the data-parallel
// dimension, so EP must divide DP.
package parallel
