// Package nccltest runs one collective alone, as NVIDIA's nccl-tests
// measure it: the strategy "collective" (a scenario's collective from time
// 0, with nothing else on the cluster) and the measurements of `paraplay
// collective` (MeasureCollective: the time, the algorithm bandwidth S/t
// and the bus bandwidth of nccl-tests' PERFORMANCE.md).
//
// A collective runs at one of two fidelities (package taskgraph's
// Detailed and Analytic): every message a flow on the links of the
// topology (Collective), or the whole collective priced by its α–β closed
// form on the bottleneck path (CollectiveAnalytic; Thakur, Rabenseifner &
// Gropp 2005), which is what a 16,384-GPU run can afford.
//
// MeasureProtocol adds NCCL's protocols (collective.Protocol: Simple, LL,
// LL128), each run on the topology as that protocol sees it, and "auto"
// (ChooseWith) picks the algorithm and protocol of least predicted time,
// as NCCL's tuner does (src/graph/tuning.cc). Scenarios run without a
// protocol: the catalog's links as they are.
//
// Topology and Schedule build a scenario's hardware and collective; the
// data-parallel strategy (package dataparallel) and local SGD reuse them.
package nccltest
