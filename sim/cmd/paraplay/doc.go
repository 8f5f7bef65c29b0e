// Command paraplay runs ParaPlay's simulator headless.
//
//	paraplay run FILE [--json] [--fidelity detailed|analytic|auto] [--trace out.json] [--timeline out.json]
//	paraplay run FILE --duration 30d|--iterations N [--sweep-checkpoint] [--json]
//	paraplay collective [--op all_reduce] [--algo ring] [--gpus 8 | --nodes K --gpus-per-node G] [flags]
//	paraplay presets [--json]
//	paraplay plan --model M --gpus N --global-batch B [--gpu G] [--seq-len S] [--top 10] [--json | --csv] [--detailed-top K]
//	paraplay export FILE|--url 'play.html?…' --format gif|png|svg --out OUT [--width --height --fps --from --to --at --speed --view --theme --present]
//	paraplay import TRACE... [--json] [--trace out.json] [--timeline out.json]
//	paraplay calibrate [--nccl-tests LOG,…] [--link NAME] [--gpu NAME] [TRACE...] [--out cal.yaml] [--json]
//	paraplay compare FILE TRACE... [--calibration cal.yaml] [--fidelity F] [--json] [--trace both.json]
//
// run simulates the scenario in FILE (YAML or JSON; see
// sim/scenario/testdata for examples), prints a summary (iteration time,
// compute and communication time, each collective's algorithm and bus
// bandwidth, each GPU's busy fraction) as text or, with --json, as JSON,
// and can write the run as a Chrome trace for Perfetto (--trace) or as
// ParaPlay's own timeline JSON (--timeline).
//
// With --duration or --iterations, run is a long run of a training
// scenario: one iteration is simulated (analytic fidelity), then package
// fault replays weeks of node failures (the failures section: a Poisson
// rate per node-day and a cause mix, the Llama 3 report's by default)
// against the recovery policy (the recovery section), and run prints the
// goodput, the failures, the time lost by cause and Young's optimum
// checkpoint interval; --sweep-checkpoint adds goodput against the
// checkpoint interval next to Daly's closed form.
//
// collective is a simulated nccl-tests: one collective over a sweep of
// sizes (-b, -e, -f as nccl-tests, or --size), on ideal links
// (--link-bw, --link-latency) or a cluster of catalog parts (--gpu,
// --link, --inter, --network), printing size, count, type, time, algbw
// and busbw with nccl-tests' bus-bandwidth factors.
//
// presets lists the GPU and link catalog with the source of every number.
//
// plan searches every parallel plan of a model on N GPUs for a global
// batch (package plan): it prints the best plans with their iteration
// time, MFU and peak memory, and why each other plan lost (out of memory,
// bubble, exposed tensor-parallel communication, ...), as a table, JSON
// ({"plans": [...]}, best first, each with its scenario keys) or CSV, with
// a progress bar on stderr.
//
// export draws a scenario file, or a playground address decoded by the
// scenario's URL codec, as a PNG or SVG of one instant or an animated GIF
// paced as the browser plays it, with a progress bar on stderr. Each GIF
// frame is written as soon as it is encoded; a frame is at most 8192×8192
// pixels (64 M pixels: encoding holds its RGBA canvas and two planes of
// palette indices, about 0.6 GB there), while PNG and SVG go to 16384.
//
// import reads PyTorch profiler (Kineto) traces, one per rank, gzipped or
// not (package kineto), and reports each rank as run reports a simulated
// GPU: step time, compute, copies, communication, exposed communication,
// idle and the host's share of it, kernels by class, the top kernels and
// every NCCL kernel; --trace and --timeline write the run converted to a
// timeline. run --kineto writes a simulated run in that format, one file
// per GPU (FILE-rank0.json, …; .gz gzips them).
//
// calibrate fits a link's α and bandwidth to nccl-tests logs (package
// nccllog) or to traces' NCCL kernels, and each traced GPU's GEMM
// efficiency scale to the traces' GEMMs (package calibrate); it prints the
// fits with their residuals and writes the calibration file that run and
// compare take with --calibration.
//
// compare simulates a scenario and sets it beside traces of the job it
// describes, rank by rank and op class by op class, with the error, and
// can write both as one Chrome trace (package compare).
//
// Every command exits with status 0 when done, 2 for invalid input (an
// unknown command or flag, a bad value, a scenario file that cannot be read
// or holds more than one YAML document, a field out of range: the message
// names the flag or field and its allowed range) and 1 when a valid run
// failed (the simulation, or writing its output). --trace and --timeline
// stream their JSON, so memory does not grow with the file.
package main
