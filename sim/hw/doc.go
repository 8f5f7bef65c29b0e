// Package hw is ParaPlay's catalog of accelerators and links: the numbers
// that every cost in the simulator starts from, each with the document it
// comes from.
//
// A GPU has a peak dense tensor throughput (bf16, or fp16 on GPUs without
// bf16), an HBM capacity and bandwidth, and a default compute efficiency —
// the fraction of peak that large transformer matrix multiplications
// actually reach. The efficiency is an assumption, not a datasheet number:
// each entry says what it is based on, and scenarios may override it.
//
// A Link has a line rate per direction per GPU (vendors often quote the
// bidirectional total: NVLink4 "900 GB/s" is 450 GB/s each way), an
// achievable fraction of that rate for large messages, and a per-message
// latency α. Effective (line rate × achievable fraction) is the β term of the
// α–β model; for a ring all-reduce of large messages it is also the bus
// bandwidth nccl-tests reports (NVIDIA/nccl-tests doc/PERFORMANCE.md), which
// is how the achievable fractions of NVLink3 and NVLink4 are calibrated:
// each such link carries the published measurement it was fitted to
// (MeasuredBusBW, MeasuredSource) and the tests hold the model within 10%
// of it.
//
// The catalog is data returned by value: GPUs and Links build fresh slices on
// every call, so callers may modify what they get without affecting anyone
// else. There is no package-level mutable state.
//
// Memory sizes: vendors write "80GB" for what is 80 GiB of HBM (the JEDEC
// convention for memory); the catalog stores GiB. Rates are decimal: 1 GB/s
// = 1e9 bytes/s, and network rates in Gb/s are divided by 8.
package hw
