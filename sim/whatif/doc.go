// Package whatif replays an imported profiler run with one thing changed —
// a faster GPU, a faster network, a larger data-parallel group, or
// communication that no longer holds up the compute — and reports the
// new run beside the measured one.
//
// # The replay
//
// Replay keeps the dependencies the measurement shows and re-times the
// kernels along them. On each GPU of a rank:
//
//   - every kernel (copy, set, NCCL kernel) keeps its CUDA stream and its
//     place in that stream's order;
//   - a kernel waits for every kernel of its GPU, on any stream, that had
//     ended when it started in the measurement (the happens-before order
//     the trace shows; the replay never reorders work);
//   - the gap between the latest of those ends and the kernel's start (a
//     host launch, a wait the trace does not record) is kept as measured;
//   - its duration changes only as the change says (Change.duration).
//
// So s′ = R′ + (s − R), where s is the measured start, R the latest
// measured end of its predecessors (or the GPU's first start) and R′ the
// latest replayed end of them. With nothing changed the replay is the
// measurement, to the nanosecond (TestIdentityReplayIsExact on the shared
// traces). With Overlap, a computing kernel no longer waits for NCCL
// kernels of other streams (its gap is still taken from all of them): the
// bound of perfect overlap. A profiler step's bounds move with the kernel
// that last started before each bound (by its end's shift once it has
// ended, else by its start's).
//
// With HostFixed, a kernel also starts no earlier than the end of the host
// call that launched it, as measured: the host does not follow its GPU.
// The two bracket the truth. A host that waited on its GPU (a
// synchronisation, reading a loss) would move earlier with it, which
// HostFixed ignores, understating the gain; a host that never waited
// launches no sooner however fast its GPU, which the replay without
// HostFixed ignores, overstating the gain (most of all when the host was
// the bottleneck). paraplay whatif prints both.
//
// This is the approach of trace-driven what-if estimators such as
// Daydream (Zhu, Phanishayee and Pekhimenko, "Daydream: Accurately
// Estimating the Efficacy of Optimizations for DNN Training", USENIX ATC
// 2020), reduced to the GPU side: the host's work is not replayed.
// Each rank is replayed alone: a wait for another rank (a late peer in a
// collective, a pipeline neighbour) is kept as a gap, so the replay answers
// for one GPU changed, not for the whole job.
//
// # The changes
//
//   - Compute divides GEMM and attention kernels' times (compute-bound);
//     FromGPUs sets it to the ratio of the two GPUs' dense tensor peaks.
//   - Memory divides elementwise, normalisation and other kernels' times
//     (memory-bound); FromGPUs sets it to the ratio of HBM bandwidths.
//     Copies and sets keep their time (a host copy rides PCIe).
//   - Network divides NCCL kernels' times.
//   - Group re-prices all-reduce, all-gather and reduce-scatter kernels
//     for a group of that many ranks with the ring's bandwidth term: their
//     time is proportional to (n−1)/n of the buffer (Patarasuk and Yuan,
//     "Bandwidth optimal all-reduce algorithms for clusters of
//     workstations", 2009), so t′ = t · ((n′−1)/n′) / ((n−1)/n). The
//     per-GPU batch is unchanged (weak scaling).
package whatif
