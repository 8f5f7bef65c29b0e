// Package compression prices the compression of a run's traffic by two
// numbers, as the surveyed compression papers report their methods: the
// fraction of the bytes that still travel (Deep Gradient Compression, Lin
// et al. ICLR 2018, sends about 0.1% of the gradient with its indices;
// PowerSGD, Vogels et al. NeurIPS 2019, sends rank-r factors, (m + n)·r of
// an m×n matrix) and the compute the encoder and decoder spend per byte
// of the original.
//
// The convergence cost is not modelled: Xu et al. (2024) report that
// naive compression of every traffic class raised throughput but hurt the
// loss, while strong compression of the data-parallel gradients alone kept
// it. Training, the parameter server and local SGD compress their
// data-parallel traffic; a training run's compression.activations also
// shrinks its pipeline messages and tensor-, context- and expert-parallel
// exchanges.
package compression
