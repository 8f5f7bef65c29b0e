// Package nccllog reads the text nccl-tests prints (NVIDIA/nccl-tests:
// all_reduce_perf, all_gather_perf, …): the header that names the
// collective and lists every rank with its host and device, then one row
// per buffer size with its element count, type, reduction, root, and the
// out-of-place and in-place time (µs), algorithm bandwidth and bus
// bandwidth (GB/s). Package calibrate fits a link's α and β to the rows.
//
// The layout of a row is read from the column header when the log has
// one ("size count type redop root time algbw busbw #wrong time …"), so
// that the older logs without a root column, with "error" instead of
// "#wrong", read as well; without a header, a row of 13 fields has a root
// and one of 12 has none. "N/A" (an in-place run the test skips) reads as
// absent. A line that cannot be read is an error naming its number and
// the field; the reader takes an io.Reader and does no I/O of its own.
package nccllog
