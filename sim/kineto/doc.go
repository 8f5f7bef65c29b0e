// Package kineto reads the traces the PyTorch profiler writes (its Kineto
// library: the Chrome Trace Event Format with traceEvents, distributedInfo
// and deviceProperties), one file per rank, and turns a run's traces into
// a timeline, so that everything that shows a simulated run (the summary,
// the Chrome trace, the scene) shows a measured one. It also writes a
// simulated run in that format, one rank per file, which reads back to the
// same timeline.
//
// # Reading
//
// Read streams: a decoder walks the top-level object key by key and
// traceEvents event by event, each event decoded alone into the fields the
// reader uses, so memory holds what a trace keeps (48 bytes a GPU
// activity, interned names) and never the file. The command line's
// decoder is encoding/json's (read_json.go); the browser, which carries
// no encoding/json, uses the package's own tokenizer (scan.go, scanfile.go),
// which gives the same trace for every input (TestScanMatchesJSON on the
// shared and written traces, FuzzScan on any bytes). The browser keeps
// only what the timeline uses: not the host's runtime calls and GEMM
// operators (analysisInputs). Limits bound the bytes
// read, the size of any one JSON value (which bounds the decoder's buffer)
// and the events kept; a malformed, truncated or oversized file is an
// error naming the problem and its byte offset. Times are read exactly:
// Kineto's microseconds ("4458676522690.655") become integer nanoseconds
// without passing through a float64.
//
// What it keeps:
//
//   - GPU activities (cat kernel, gpu_memcpy, gpu_memset), classified by
//     name (classify.go): GEMM (cuBLAS, CUTLASS, cuDNN's implicit GEMMs),
//     attention (FlashAttention, fmha, SDPA), elementwise and norms, other
//     kernels, NCCL collectives, copies and sets. An NCCL kernel's
//     collective comes from the args PyTorch adds (Collective name, In/Out
//     msg nelems, dtype, Group size, Process Group Name) and its algorithm
//     and protocol from NCCL's kernel name.
//   - the host's CUDA runtime calls (cuda_runtime), tied to the work they
//     launched by correlation id: the CPU launch gaps;
//   - the host's GEMM operators (aten::mm, addmm, bmm, baddbmm) with their
//     shapes when the profiler recorded them, tied to their kernels by
//     External id or by enclosing the launch: package calibrate fits the
//     GEMM model to them;
//   - ProfilerStep#N annotations: the step time.
//
// # Converting
//
// Timeline makes a GPU per rank (per device of a rank that used several),
// each rank's clock starting at its first step or GPU activity, its
// kernels, copies and sets as the spans of its one stream (where two CUDA
// streams overlap, the later kernel's span starts where the earlier one
// ended, so the spans cover the union of the GPU's work), and its NCCL
// kernels as collectives of that rank alone. Analyze reports each GPU as
// paraplay run reports a simulated one: step time, compute, memory
// copies, communication, exposed communication, overlap, idle (and the
// idle time spent waiting on the host's launches), kernels by class, the
// top kernels and every NCCL kernel with its size and bandwidth.
//
// # Writing
//
// WriteRank writes one GPU of a run as Kineto would: its spans as kernels
// on stream 7, its collectives as NCCL kernels on stream 20 with PyTorch's
// args, a ProfilerStep#0 over the run, and ParaPlay's own fields (args
// named "paraplay …" and a top-level "paraplay" object), which Read and
// Timeline turn back into the same GPUs, spans, collectives and end
// (TestRoundTrip). The links, a detailed run's messages, memory and the
// strategies' records are not written.
//
// The package does no I/O (it takes an io.Reader and an io.Writer; the
// command line opens files and gunzips them, the playground hands it the
// browser's streams of the reader's files) and builds for the browser,
// without WriteRank.
package kineto
