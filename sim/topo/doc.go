// Package topo describes the hardware of a run as a graph: GPUs and
// switches are vertices (GPU i is vertex i; switch j is vertex
// len(GPUs)+j), directed links are edges with a bandwidth and a latency.
// Builders make the common shapes — a ring of direct links, a single
// non-blocking switch (one NVSwitch node), multi-node clusters whose GPUs
// each have a NIC on a rail-optimized or fat-tree network, a 2D torus,
// PCIe-only servers and a WAN of sites — and Router maps a logical
// GPU-to-GPU message onto the physical links by shortest path.
//
// Latency convention: a message pays the sum of the latencies of the links
// it crosses. Builders put a port's whole α on the GPU's uplink and none on
// the switch's downlink, so that one GPU-to-GPU message through one switch
// pays α exactly once, as the α–β model assumes.
package topo
