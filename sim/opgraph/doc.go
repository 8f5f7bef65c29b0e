// Package opgraph describes a workload as a graph of operators with
// shapes — convolutions, batch norms, pooling, dense layers, LSTM cells,
// embeddings — so that networks other than transformers (ResNet, a
// sequence-to-sequence LSTM translator) can be counted the way the
// transformer's op list is: parameters and multiply-accumulates per
// operator, per sample.
//
// It is the first half of the operator-graph workloads of issue 26: the
// descriptions and their counts, held to published figures (ResNet-50:
// torchvision's 25,557,032 parameters and 4.09 GFLOPS at 224×224;
// Sutskever et al. 2014's 384M-parameter LSTM translator). Simulating a
// graph on GPUs, with a parallelization choice per operator (FlexFlow,
// DLPlacer, the seq2seq hybrid, LAMP), is not built yet.
//
// The package is host-only in effect: nothing the browser build imports
// uses it.
package opgraph
