// Package splitlearn simulates split learning and federated averaging:
// client devices (phones, laptops, edge boards) that train on their own
// data over slow uplinks, and compute nodes that hold the rest of a split
// model.
//
// Split learning cuts the model after Config.Cut layers. Each round, every
// client runs its layers forward on its batch and uploads the activations
// at the cut; the server side, one compute node (one-hop) or a chain of
// Config.Hops nodes each holding a contiguous share of the remaining layers
// (multi-hop, MP-SL: Tirana, Lalis and Chatzopoulos 2024), waits for every
// client's activations, runs them forward as one batch hop by hop, back
// again, and returns each client its gradient at the cut; the client then
// runs its backward. The round ends when the slowest client finishes, so
//
//	T_round = max_i(F_i + U_i) + Σ_k (f_k + b_k) + Σ_{k<h−1} 2·H_k + max_i(D_i + B_i)
//
// with F_i, B_i client i's forward and backward (FLOPs of its layers ×
// batch / its device's FLOP/s), U_i, D_i its upload and download (α +
// activation bytes at the cut / uplink or downlink), f_k, b_k node k's
// forward and backward on the whole batch, and H_k the activations from
// node k to k+1 (α + bytes / hop bandwidth). The servers' ports are far
// faster than the clients' links, so no two messages slow each other down
// and the formula is exact (the tests check it).
//
// Federated averaging (McMahan et al. 2017) is the comparison point: every
// client downloads the whole model, trains Config.LocalSteps steps on its
// own copy and uploads its weights; compute node 0 averages them. A round
// takes max_i(D_i + C_i + U_i), with C_i the local steps' compute and
// U_i, D_i the model's bytes over the client's links.
//
// Memory of a node holding layers ℓ for a batch of n samples: 16 bytes per
// parameter (fp32 weights, gradients and Adam's two moments) plus, per
// sample, 4 bytes for each element of its input and of every layer's
// output, kept for the backward (Memory). A compute node's n is every
// client's batch at once; splitting the server side over h nodes divides
// both terms among them (Partition balances the largest).
//
// Costs are analytic (FLOPs and bytes from the model's layer table, times
// from the devices' FLOP/s); the rounds are a task graph played by package
// taskgraph, whose messages cross a fluid network (package fabric). The run is deterministic: per-client speed factors come from
// the configuration or from its seed.
package splitlearn
