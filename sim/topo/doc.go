// Package topo describes the hardware of a run: GPUs, the servers (nodes)
// they sit in, and the directed links between them with their bandwidth and
// latency. Builders make the common shapes; so far the full-duplex ring of
// one node.
package topo
