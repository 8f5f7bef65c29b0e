// Package chunks splits an O(n) pass over millions of items into
// contiguous index ranges, one goroutine each, for the host's checks of
// large runs (a 1,024-GPU ring all-reduce has 4 million messages). The
// caller keeps what range k finds at index k and joins the results in
// range order, so its answer is the sequential pass's, whatever order the
// goroutines run in.
package chunks
