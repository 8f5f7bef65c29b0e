// Package partitioned simulates partitioned pretraining (Miranda and Von
// Zuben 2015, "Reducing the Training Time of Neural Networks by
// Partitioning", arXiv 1511.02954): the network's width is split into k
// independent sub-models, each of width h/k (and h/k's share of heads and
// feed-forward width), which train apart and in parallel on their own k-th
// of the GPUs with no communication between them; their weights are then
// gathered into the block-diagonal initial weights of the full network,
// which trains on every GPU with data parallelism.
//
// The saving is the square law of the paper: a layer of width w has w²
// weights, a sub-model's layer (w/k)², so each sub-model's linear FLOPs
// (and the gradients its group all-reduces) are 1/k² of the full model's,
// and all k of them together 1/k. Only the parts of a transformer that
// grow linearly in the width (attention's s×s products, the embedding and
// the output layer) shrink by 1/k.
//
// A run is three phases on the scenario's cluster, at analytic fidelity:
// partitioned.pre_steps steps of phase 1 (one step of a sub-model is a
// training iteration on dp/k GPUs, simulated once by package training and
// repeated on each group of GPUs and each step), the merge (an all-gather
// of every sub-model's bf16 weights over all GPUs, its ring closed form on
// the cluster's bottleneck link), and partitioned.full_steps steps of the
// full model on all of them (an iteration simulated once by package
// training). The timeline repeats the two simulated iterations' spans and
// collectives in place; its Partitioned record holds the phases. Memory
// is reported per phase in the record, not as a series.
//
// Not modelled: how well the merged weights train (the paper reports a
// speed-up without loss of accuracy on MNIST and CIFAR-10), the weights
// between blocks that no sub-model trained (they start from scratch), and
// any data partitioning between the subtasks (each sub-model takes its
// group's batch).
package partitioned
