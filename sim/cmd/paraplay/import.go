package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"paraplay/sim/kineto"
	"paraplay/sim/timeline"
)

const importUsage = `paraplay import reads PyTorch profiler (Kineto) traces, one file per rank,
gzipped or not, and reports each rank as paraplay run reports a simulated
GPU: its step time (ProfilerStep annotations), compute, memory copies,
communication, exposed communication, idle time (and how much of it waited
on the host's kernel launches), its kernels by class, its top kernels, and
every NCCL kernel with its collective, size, dtype, group, time and
bandwidth. --trace and --timeline write the run converted to ParaPlay's
timeline (a GPU per rank, its kernels as spans, its NCCL kernels as
collectives), which opens in Perfetto as a simulated run does.

Usage:
  paraplay import TRACE... [--json] [--trace out.json] [--timeline out.json]

Exit status: 0 done; 2 a trace that cannot be read (the message names the
file, the problem and its byte offset); 1 writing an output failed.

Flags:
`

func importCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paraplay import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, importUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the report as JSON, every NCCL kernel listed")
	trace := fs.String("trace", "", "write the imported run as a Chrome trace to this file")
	tlPath := fs.String("timeline", "", "write the imported run's timeline JSON to this file")
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "paraplay import: want at least one trace file\n\n%s", importUsage)
		return exitUsage
	}
	limitMemory()
	traces, err := readTraces(files)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay import: %v\n", err)
		return exitUsage
	}
	tl, err := kineto.Timeline(traces)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay import: %v\n", err)
		return exitUsage
	}
	reps, err := kineto.Analyze(traces)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay import: %v\n", err)
		return exitUsage
	}
	if err := writeImport(tl, reps, *asJSON, stdout); err != nil {
		fmt.Fprintf(stderr, "paraplay import: %v\n", err)
		return exitError
	}
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{{*trace, tl.WriteChromeTrace}, {*tlPath, func(w io.Writer) error { return timeline.WriteJSON(tl, w) }}} {
		if out.path == "" {
			continue
		}
		if err := writeFile(out.path, out.write); err != nil {
			fmt.Fprintf(stderr, "paraplay import: %v\n", err)
			return exitError
		}
	}
	return 0
}

// writeImport prints the ranks' reports, as text or JSON.
func writeImport(tl *timeline.Timeline, reps []kineto.RankReport, asJSON bool, w io.Writer) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Title string              `json:"title"`
			End   int64               `json:"end_ns"`
			Ranks []kineto.RankReport `json:"ranks"`
		}{tl.Title, int64(tl.End), reps})
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %d GPU%s\n", tl.Title, len(tl.GPUs), plural(len(tl.GPUs)))
	for i := range reps {
		writeRankReport(bw, &reps[i])
	}
	return bw.Flush()
}

// importMemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
// paraplay import runs under unless GOMEMLIMIT sets one. What an import
// keeps is compact (48 bytes a kernel, then its spans), but the garbage
// collector's default pacing lets the heap grow to twice what is live.
// Importing a 1 GiB trace of 1.86 million kernels (the synthetic trace of
// BenchmarkRead1GB, written to a file) peaked at a maximum resident set of
// 514 MiB without the limit and 402 MiB with it, for 13% more CPU time
// (/usr/bin/time -v, 2026-12-05). The limit makes the collector run sooner;
// an import whose live data passes it still runs, the collector only works
// harder.
const importMemoryLimit = 400 << 20

// limitMemory sets importMemoryLimit, unless the environment set a limit.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(importMemoryLimit)
	}
}

// readTraces reads each file (gunzipped when it is gzip) as one rank.
func readTraces(files []string) ([]*kineto.Trace, error) {
	var out []*kineto.Trace
	for _, path := range files {
		t, err := readTrace(path)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// readTrace reads one trace file, gzip or not (by its first two bytes).
func readTrace(path string) (*kineto.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := decompress(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return kineto.Read(r, filepath.Base(path), kineto.Limits{})
}

// decompress gunzips r when it starts with gzip's magic bytes.
func decompress(r *bufio.Reader) (io.Reader, error) {
	magic, _ := r.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		return gzip.NewReader(r)
	}
	return r, nil
}

// maxKinetoRanks bounds --kineto: one file per GPU.
const maxKinetoRanks = 1024

// kinetoPath is the file of rank g for --kineto path: "-rank<g>" before
// the extension (".json" or ".json.gz"), as out-rank0.json, out-rank1.json.
func kinetoPath(path string, g int) string {
	ext := ""
	for _, e := range []string{".json.gz", ".json", ".gz"} {
		if strings.HasSuffix(path, e) {
			ext = e
			break
		}
	}
	return fmt.Sprintf("%s-rank%d%s", strings.TrimSuffix(path, ext), g, ext)
}

// writeKineto writes one Kineto-format trace per GPU of the run
// (kinetoPath), gzipped when the name ends in .gz.
func writeKineto(path string, tl *timeline.Timeline) error {
	if len(tl.GPUs) > maxKinetoRanks {
		return fmt.Errorf("--kineto writes one file per GPU; at most %d GPUs (the run has %d)", maxKinetoRanks, len(tl.GPUs))
	}
	for g := range tl.GPUs {
		write := func(w io.Writer) error { return kineto.WriteRank(w, tl, g) }
		if strings.HasSuffix(path, ".gz") {
			write = func(w io.Writer) error {
				z := gzip.NewWriter(w)
				if err := kineto.WriteRank(z, tl, g); err != nil {
					return err
				}
				return z.Close()
			}
		}
		if err := writeFile(kinetoPath(path, g), write); err != nil {
			return err
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
