// Package compression prices the compression of a run's traffic, as the
// surveyed compression papers report their methods:
//
//   - by two numbers, the fraction of the bytes that still travel and the
//     compute the encoder and decoder spend per byte of the original (Deep
//     Gradient Compression, Lin et al. ICLR 2018, sends about 0.1% of the
//     gradient with its indices; PowerSGD, Vogels et al. NeurIPS 2019,
//     sends rank-r factors, (m + n)·r of an m×n matrix): Bytes and Time;
//   - as a sparse exchange of a subset of the values, each with its index
//     (Slim-DP, Sun et al. 2017): Sparse;
//   - as a projection onto a fixed low-dimensional subspace, whose
//     coordinates travel and whose projection and rebuilding are matrix
//     products charged by their FLOPs (Protocol Models, Ramasinghe et al.
//     2025): ProjectionFLOPs.
//
// The convergence cost is not modelled: Xu et al. (2024) report that
// naive compression of every traffic class raised throughput but hurt the
// loss, while strong compression of the data-parallel gradients and mild
// compression of the activations and parameters kept it. Training, the
// parameter server and local SGD compress their data-parallel traffic; a
// training run's compression.activations also shrinks its pipeline
// messages and tensor-, context- and expert-parallel exchanges, and
// compression.parameters its ZeRO parameter gathers.
package compression
