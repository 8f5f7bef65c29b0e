// Package opgraph describes a workload as a graph of operators with
// shapes — convolutions, batch norms, pooling, dense layers, LSTM cells,
// embeddings — so that networks other than transformers (ResNet, a
// sequence-to-sequence LSTM translator) can be counted the way the
// transformer's op list is: parameters and multiply-accumulates per
// operator, per sample.
//
// It is the start of the operator-graph workloads of issue 26: the
// descriptions and their counts, held to published figures (ResNet-50:
// torchvision's 25,557,032 parameters and 4.09 GFLOPS at 224×224;
// Sutskever et al. 2014's 384M-parameter LSTM translator), and Simulate,
// which trains a graph on one server's GPUs with data parallelism (the
// data-parallel strategy runs it: forward and backward priced from the
// graph, a ring all-reduce of its bf16 gradient) or layer-wise model
// parallelism (GPipe over contiguous stages cut where no residual branch
// is open, balanced by forward time, each boundary activation sent
// between neighbours; its makespan is held to GPipe's closed form).
//
// Pricing is first-order: a convolution, dense layer or LSTM step at its
// FLOPs over the GPU's peak times the preset's efficiency, every other
// operator at its HBM traffic; not yet the op-level roofline of package
// operators, whose transformer op list this graph should share. A choice
// of parallelization per operator (FlexFlow, DLPlacer) is not built.
//
// The 3-D U-Net of Çiçek et al. 2016 (unet3d.go, its 19,069,955
// parameters held to the paper) trains with LAMP's split (lamp.go, Zhu et
// al. 2020): GPipe stages cut inside skip spans by dynamic programming,
// each skip tensor sent straight to the stage that reads it, and every
// stage's memory checked against the GPU; host-only (lamp_js.go).
//
// The package is host-only in effect: nothing the browser build imports
// uses it.
package opgraph
