// Package opgraph describes a workload as a graph of operators with
// shapes — convolutions, batch norms, pooling, dense layers, LSTM cells,
// embeddings — so that networks other than transformers (ResNet, a
// sequence-to-sequence LSTM translator) can be counted and trained the way
// the transformer's op list is: parameters and multiply-accumulates per
// operator, per sample.
//
// The descriptions are held to published figures (ResNet-50:
// torchvision's 25,557,032 parameters and 4.09 GFLOPS at 224×224;
// Sutskever et al. 2014's 384M-parameter LSTM translator). The strategy
// (strategy: opgraph, the graph section) trains a graph on one server's
// GPUs, as a task graph:
//
//   - data: every GPU runs the whole graph on its share of the batch, then
//     a ring all-reduce sums the bf16 gradient (one stage on every GPU);
//   - model: GPipe over contiguous stages cut where no residual branch is
//     open, balanced by forward time, each boundary activation sent
//     between neighbours (its makespan held to GPipe's closed form), or
//     DAPPLE's stages of their own numbers of GPUs (stages.go), with its
//     planner over every split (plan.go, host only);
//   - hybrid: Ono, Utiyama and Sumita's seq2seq hybrid (hybrid.go, host
//     only): LSTM layers model parallel as a wavefront over the time
//     steps, the softmax data parallel, held to 3E + 3W·c + 3f on free
//     links.
//   - model, for a graph with skip connections (the 3-D U-Net of Çiçek et
//     al. 2016, unet3d.go, its 19,069,955 parameters held to the paper):
//     LAMP's split (lamp.go, Zhu et al. 2020, host only), GPipe stages cut
//     inside skip spans by dynamic programming, each skip tensor sent
//     straight to the stage that reads it, every stage's memory checked
//     against the GPU.
//
// Pricing is first-order (forwardTime): a convolution, dense layer or
// LSTM step at its FLOPs over the GPU's peak times its preset efficiency,
// every other operator at its HBM traffic; a backward is twice its
// forward. Not yet the op-level roofline of package operators.
//
// Host only, with build-time demos: FlexFlow's per-operator split searched
// by MCMC (flexflow.go) on VGG-16 and DLPlacer's placement of a module's
// branches on a worker's GPUs (place.go) on GoogLeNet's module 3a, which
// graph.search runs and plays the best result of (search.go).
package opgraph
