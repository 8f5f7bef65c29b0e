// Package collective describes collective operations as schedules: plain data
// listing, step by step, which rank sends which bytes of the buffer to which
// rank, whether the receiver adds them to its own copy (Reduce) or stores
// them, and which earlier transfers each one waits for (Schedule.After:
// exactly the transfers whose data it carries). The simulator executes a schedule on
// links, the scene draws it, the articles explain it, and tests read it as a
// grid — all from the same data.
//
// One file per algorithm: Ring (and RingPipelined), RecursiveHalvingDoubling,
// RecursiveDoubling, DoubleBinaryTree, NCCLTree, Hierarchical and ParameterServer for
// all-reduce; ReduceScatterRing, AllGatherRing, BroadcastBinomial,
// BroadcastChain, ReduceBinomial, AllToAllPairwise, SendRecv and Barrier.
// New builds any of them by nccl-tests' operation names for the command
// line, with "auto" choosing by size; Time is each schedule's closed-form
// α–β time, for the analytic fidelity; BusBWFactor turns algorithm bandwidth
// into nccl-tests' bus bandwidth.
//
// Every Time formula holds on one execution model, which the tests run:
// each rank hangs off an ideal switch by one full-duplex port, a port
// carries one message at a time, first come first served, and a message
// costs α + bytes·β. Reduction arithmetic is free (γ = 0): ParaPlay does not
// charge it yet.
//
// Cost formulas follow Thakur, Rabenseifner & Gropp, "Optimization of
// Collective Communication Operations in MPICH" (IJHPCA 2005) and Patarasuk &
// Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
// workstations" (JPDC 2009); the others cite their sources where they are
// defined.
package collective
