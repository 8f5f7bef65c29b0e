// Package cluster builds the topology of a real cluster from the hardware
// catalog: "8 nodes of 8 h100-sxm on nvlink4, one ib-ndr NIC per GPU on a
// rail-optimized network" becomes GPUs, NVSwitches, NICs' leaf and spine
// switches and their links, each with the catalog's effective bandwidth and
// latency. It joins package hw (what the parts are) and package topo (how
// they are wired), so that neither needs to know the other.
package cluster
