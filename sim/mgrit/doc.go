// Package mgrit simulates layer-parallel training by multigrid reduction
// in time over the layer dimension (Günther, Ruthotto, Schroder, Cyr and
// Gauger, "Layer-Parallel Training of Deep Residual Neural Networks",
// SIAM J. Math. Data Sci. 2020; arXiv 1812.04352). A residual network is a
// forward-Euler discretisation of an ODE, so its forward propagation, and
// the backward (adjoint) one, can be solved for all layers at once by
// MGRIT iterations instead of layer after layer.
//
// The run: mgrit.layers layers (L) split evenly over the P GPUs, ℓ = L/P
// each, every m-th layer (mgrit.coarsen) a coarse point, c = ℓ/m of them
// a GPU. Each of mgrit.iterations (K) iterations of the forward solve is
//   - relaxation on every GPU at once: F-relaxation (the ℓ − c fine steps
//     between coarse points) or FCF-relaxation (F, then each coarse point
//     from the fine point before it, which for the first needs the state
//     the previous GPU's block ends with, one message, then F again);
//   - the coarse-grid solve: c coarse steps a GPU (the coarse propagator
//     is the same layer with an m times larger step, so it costs one
//     layer step), GPU after GPU, each passing its last coarse state to
//     the next (one message);
//   - a barrier: the iteration's residual norm is known everywhere.
//
// A last F-relaxation fills the fine points. The backward solve mirrors
// it (GPUs in reverse order) at the backward's layer step. Per iteration,
// with t a layer step and μ = α + state/β a message,
//
//	T_iter = (2ℓ − c)·t + (L/m)·t + (P − 1)·μ   (FCF; F: (ℓ − c)·t + (L/m)·t + (P − 1)·μ)
//	T_solve = K·T_iter + (ℓ − c)·t
//
// (the C-relaxation's message arrives while GPU 0, which needs none,
// starts the coarse solve, so the chain of coarse steps hides it),
// against serial propagation L·t. Without messages the speed-up
// L·t / T_solve tends to m/K as P grows, and the solve breaks even
// beyond P* = (K·(2 − 1/m) + 1 − 1/m) / (1 − K/m) GPUs (FCF; F:
// (K + 1)(1 − 1/m) / (1 − K/m)); with K ≥ m it never does.
//
// Not modelled: convergence. The number of iterations is an input;
// Günther et al. report that a few iterations per optimisation step
// (inexact gradients, updated at once with the weights) train as well as
// exact serial propagation, which ParaPlay quotes and does not check.
// Also not modelled: more than two grid levels, the optimizer step and
// the gradient all-reduce of data parallelism.
package mgrit
