// Package collective describes collective operations as schedules: plain data
// listing, step by step, which rank sends which chunk of the buffer to which
// rank, and which earlier transfers each one waits for. The simulator executes
// a schedule on links, the scene draws it, the articles explain it, and tests
// read it as a grid — all from the same data.
//
// Cost formulas follow Thakur, Rabenseifner & Gropp, "Optimization of
// Collective Communication Operations in MPICH" (IJHPCA 2005) and Patarasuk &
// Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
// workstations" (JPDC 2009).
package collective
