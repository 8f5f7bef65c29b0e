// Command paraplay runs ParaPlay's simulator headless.
//
//	paraplay run FILE [--json] [--trace out.json] [--timeline out.json]
//
// run simulates the scenario in FILE (YAML or JSON; see
// sim/scenario/testdata for examples), prints a summary of the iteration
// (iteration time, compute and communication time, each collective's
// algorithm and bus bandwidth, each GPU's busy fraction) as text or, with
// --json, as JSON, and can write the run as a Chrome trace for Perfetto
// (--trace) or as ParaPlay's own timeline JSON (--timeline). A bad scenario
// exits with status 2 and a message naming the field and its allowed range.
package main
