package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"paraplay/sim/calibrate"
	"paraplay/sim/compare"
	"paraplay/sim/hw"
	"paraplay/sim/kineto"
	"paraplay/sim/units"
	"paraplay/sim/whatif"
)

const whatifUsage = `paraplay whatif replays PyTorch profiler traces (one per rank) with one thing
changed and reports each rank's new step time beside the measured one. The
replay keeps the order the measurement shows (a kernel waits for every
kernel of its GPU that had ended when it started, and keeps the gap after
the latest of them) and changes only the kernels' durations:

  --gpu NAME      run on another GPU (a preset: paraplay presets): GEMM and
                  attention kernels by the ratio of dense tensor peaks, the
                  memory-bound kernels by the ratio of HBM bandwidths; the
                  measured GPU is read from the trace's deviceProperties, or
                  --from NAME
  --compute X     GEMM and attention kernels X times faster
  --memory X      elementwise, normalisation and other kernels X times faster
  --network X     NCCL kernels X times faster
  --group N       all-reduce, all-gather and reduce-scatter over N ranks (the
                  ring's (n-1)/n share of the buffer), same per-GPU batch
  --overlap       computing kernels no longer wait for NCCL kernels

Each figure comes twice. "host follows" lets the host keep pace with its
GPU, as a host that waits on its GPU would; "host fixed" starts no kernel
before the end of the host call that launched it, as measured, as a host
that never waits on its GPU would. The truth lies between: a host-bound run
(a large "waiting on the host's launches" in paraplay import) sits near
"host fixed".

Usage:
  paraplay whatif TRACE... [--gpu NAME] [--compute X] [--memory X] [--network X] [--group N] [--overlap] [--json] [--trace both.json]

--trace writes one Chrome trace with a measured and a what-if process per
rank (the host following its GPU). Exit status: 0 done; 2 a trace or a
change that cannot be used; 1 writing an output failed.

Flags:
`

// whatifFlags are the command's flags.
type whatifFlags struct {
	change      whatif.Change
	gpu, from   string
	asJSON      bool
	trace       string
	explanation string // what the change is, for the report
}

func whatifCommand(args []string, stdout, stderr io.Writer) int {
	var f whatifFlags
	fs := flag.NewFlagSet("paraplay whatif", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, whatifUsage); fs.PrintDefaults() }
	fs.StringVar(&f.gpu, "gpu", "", "replay on this GPU preset")
	fs.StringVar(&f.from, "from", "", "the measured GPU's preset (default: from deviceProperties)")
	fs.Float64Var(&f.change.Compute, "compute", 0, "GEMM and attention kernels this many times faster")
	fs.Float64Var(&f.change.Memory, "memory", 0, "memory-bound kernels this many times faster")
	fs.Float64Var(&f.change.Network, "network", 0, "NCCL kernels this many times faster")
	fs.IntVar(&f.change.Group, "group", 0, "data-parallel collectives over this many ranks")
	fs.BoolVar(&f.change.Overlap, "overlap", false, "computing kernels stop waiting for NCCL kernels")
	fs.BoolVar(&f.asJSON, "json", false, "print the comparison as JSON")
	fs.StringVar(&f.trace, "trace", "", "write the measured and the what-if run as one Chrome trace")
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "paraplay whatif: want at least one trace file\n\n%s", whatifUsage)
		return exitUsage
	}
	traces, err := readTraces(files)
	if err == nil {
		err = f.resolve(traces)
	}
	var measured, follows, fixed []kineto.RankReport
	var after []*kineto.Trace
	if err == nil {
		measured, err = kineto.Analyze(traces)
	}
	if err == nil {
		after, follows, err = replayAnalyze(traces, f.change)
	}
	if err == nil {
		c := f.change
		c.HostFixed = true
		_, fixed, err = replayAnalyze(traces, c)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay whatif: %v\n", err)
		return exitUsage
	}
	if err := writeWhatif(stdout, f, measured, follows, fixed); err != nil {
		fmt.Fprintf(stderr, "paraplay whatif: %v\n", err)
		return exitError
	}
	if f.trace != "" {
		if err := writeWhatifTrace(f.trace, traces, after); err != nil {
			fmt.Fprintf(stderr, "paraplay whatif: %v\n", err)
			return exitError
		}
	}
	return 0
}

// resolve turns --gpu into the change and says what the change is.
func (f *whatifFlags) resolve(traces []*kineto.Trace) error {
	if f.gpu != "" {
		to, err := hw.LookupGPU(f.gpu)
		if err != nil {
			return fmt.Errorf("--gpu: %v", err)
		}
		fromName := f.from
		if fromName == "" {
			fromName = measuredPreset(traces)
		}
		if fromName == "" {
			return fmt.Errorf("--gpu: the traces' deviceProperties name no GPU preset; say which GPU they ran on with --from NAME")
		}
		from, err := hw.LookupGPU(fromName)
		if err != nil {
			return fmt.Errorf("--from: %v", err)
		}
		g := whatif.FromGPUs(from, to)
		if f.change.Compute == 0 {
			f.change.Compute = g.Compute
		}
		if f.change.Memory == 0 {
			f.change.Memory = g.Memory
		}
		f.explanation = fmt.Sprintf("%s instead of %s: ", to.Name, from.Name)
	} else if f.from != "" {
		return fmt.Errorf("--from names the measured GPU for --gpu; give --gpu too")
	}
	f.explanation += describeChange(f.change)
	return f.change.Validate()
}

// measuredPreset is the preset of the first GPU the traces list.
func measuredPreset(traces []*kineto.Trace) string {
	for _, t := range traces {
		for _, d := range t.Devices {
			if p, ok := calibrate.Preset(d.Name, d.Memory); ok {
				return p
			}
		}
	}
	return ""
}

// describeChange says what c changes, in the report's words.
func describeChange(c whatif.Change) string {
	var parts []string
	for _, x := range []struct {
		what string
		v    float64
	}{{"GEMM and attention", c.Compute}, {"memory-bound kernels", c.Memory}, {"NCCL kernels", c.Network}} {
		if x.v != 0 && x.v != 1 {
			parts = append(parts, fmt.Sprintf("%s ×%.3g faster", x.what, x.v))
		}
	}
	if c.Group != 0 {
		parts = append(parts, fmt.Sprintf("data-parallel collectives over %d ranks", c.Group))
	}
	if c.Overlap {
		parts = append(parts, "compute no longer waits for communication")
	}
	if len(parts) == 0 {
		return "nothing changed"
	}
	return strings.Join(parts, ", ")
}

// replayAnalyze replays the traces under c and reports the replay.
func replayAnalyze(traces []*kineto.Trace, c whatif.Change) ([]*kineto.Trace, []kineto.RankReport, error) {
	after, err := whatif.Replay(traces, c)
	if err != nil {
		return nil, nil, err
	}
	reps, err := kineto.Analyze(after)
	return after, reps, err
}

// whatifRow is one figure of a rank, measured and replayed both ways.
type whatifRow struct {
	Class    string     `json:"class"`
	Measured units.Time `json:"measured_ns"`
	// Follows is the replay with the host keeping pace with its GPU,
	// Fixed with the host as measured; Change and ChangeFixed are their
	// relative changes from Measured.
	Follows     units.Time `json:"whatif_host_follows_ns"`
	Fixed       units.Time `json:"whatif_host_fixed_ns"`
	Change      float64    `json:"change"`
	ChangeFixed float64    `json:"change_host_fixed"`
}

// whatifRank is one rank's figures.
type whatifRank struct {
	GPU  int         `json:"gpu"`
	Name string      `json:"name"`
	File string      `json:"file"`
	Rows []whatifRow `json:"rows"`
}

// whatifRows sets the measured figures beside both replays'.
func whatifRows(m, a, b *kineto.RankReport) []whatifRow {
	get := []func(r *kineto.RankReport) units.Time{
		func(r *kineto.RankReport) units.Time { return r.StepTime }, func(r *kineto.RankReport) units.Time { return r.Window },
		func(r *kineto.RankReport) units.Time { return r.Compute }, func(r *kineto.RankReport) units.Time { return r.Communication },
		func(r *kineto.RankReport) units.Time { return r.Exposed }, func(r *kineto.RankReport) units.Time { return r.Idle },
	}
	names := []string{"step", "window", "compute", "communication", "exposed communication", "idle"}
	rel := func(x, y units.Time) float64 {
		if x == 0 {
			return 0
		}
		return float64(y-x) / float64(x)
	}
	rows := make([]whatifRow, len(get))
	for i, g := range get {
		rows[i] = whatifRow{Class: names[i], Measured: g(m), Follows: g(a), Fixed: g(b), Change: rel(g(m), g(a)), ChangeFixed: rel(g(m), g(b))}
	}
	return rows
}

// writeWhatif prints each rank's measured and what-if figures.
func writeWhatif(w io.Writer, f whatifFlags, measured, follows, fixed []kineto.RankReport) error {
	ranks := make([]whatifRank, len(measured))
	for i := range measured {
		ranks[i] = whatifRank{GPU: measured[i].GPU, Name: measured[i].Name, File: measured[i].File, Rows: whatifRows(&measured[i], &follows[i], &fixed[i])}
	}
	if f.asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Change      whatif.Change `json:"change"`
			Explanation string        `json:"explanation"`
			Ranks       []whatifRank  `json:"ranks"`
		}{f.change, f.explanation, ranks})
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "what if: %s\n", f.explanation)
	for i, r := range ranks {
		fmt.Fprintf(bw, "GPU %d, %s: %s", r.GPU, r.Name, r.File)
		if n := len(measured[i].Steps); n > 0 {
			fmt.Fprintf(bw, " (step: mean of %d ProfilerSteps)", n)
		}
		fmt.Fprintf(bw, "\n  %-22s %14s %24s %24s\n", "", "measured", "what-if: host follows", "what-if: host fixed")
		for _, row := range r.Rows {
			fmt.Fprintf(bw, "  %-22s %14v %15v %+7.1f%% %15v %+7.1f%%\n", row.Class, row.Measured, row.Follows, 100*row.Change, row.Fixed, 100*row.ChangeFixed)
		}
	}
	return bw.Flush()
}

// writeWhatifTrace writes both runs as one Chrome trace: a measured and a
// what-if process per rank.
func writeWhatifTrace(path string, before, after []*kineto.Trace) error {
	m, err := kineto.Timeline(before)
	if err != nil {
		return err
	}
	a, err := kineto.Timeline(after)
	if err != nil {
		return err
	}
	gpus := make([]int, len(m.GPUs))
	for i := range gpus {
		gpus[i] = i
	}
	both, err := compare.Combine(m, a, gpus)
	if err != nil {
		return err
	}
	both.Title = m.Title + " beside its what-if replay"
	for i := range m.GPUs {
		both.GPUs[2*i+1].Name = m.GPUs[i].Name + " what-if"
	}
	return writeFile(path, func(w io.Writer) error { return both.WriteChromeTrace(w) })
}
