// Package balance deals weighted items to bins so that the heaviest bin is
// as light as a greedy rule can make it: Graham's longest-processing-time
// (LPT) rule, which sorts the items by weight, heaviest first, and gives
// each to the bin with the least weight so far.
//
// Graham (1969, "Bounds on Multiprocessing Timing Anomalies", SIAM J. Appl.
// Math. 17(2)) proved that LPT's heaviest bin is at most 4/3 − 1/(3m) times
// the optimum on m bins, and that the bound is tight. The training
// simulator uses it to deal a batch's variable-length sequences to
// data-parallel replicas, and each replica's to its microbatches, by
// predicted cost, as Hydraulis's cost-balanced data assignment does (Li et
// al. 2024, arXiv 2412.07894).
package balance
