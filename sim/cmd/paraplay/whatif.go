package main

import (
	"bufio"
	"encoding/json"
	"errors"
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

Usage:
  paraplay whatif TRACE... [--gpu NAME] [--compute X] [--memory X] [--network X] [--group N] [--overlap] [--json] [--trace both.json]

--trace writes one Chrome trace with a measured and a what-if process per
rank. Exit status: 0 done; 2 a trace or a change that cannot be used; 1
writing an output failed.

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
	files, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "paraplay whatif: want at least one trace file\n\n%s", whatifUsage)
		return exitUsage
	}
	traces, err := readTraces(files)
	if err == nil {
		err = f.resolve(traces)
	}
	var measured, replayed []kineto.RankReport
	var after []*kineto.Trace
	if err == nil {
		after, err = whatif.Replay(traces, f.change)
	}
	if err == nil {
		measured, err = kineto.Analyze(traces)
	}
	if err == nil {
		replayed, err = kineto.Analyze(after)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay whatif: %v\n", err)
		return exitUsage
	}
	if err := writeWhatif(stdout, f, measured, replayed); err != nil {
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

// whatifRank is one rank's figures, measured and replayed.
type whatifRank struct {
	GPU  int           `json:"gpu"`
	Name string        `json:"name"`
	File string        `json:"file"`
	Rows []compare.Row `json:"rows"`
}

// whatifRows pairs the measured figures with the replayed ones; Row's
// Simulated is the what-if figure and Error the relative change.
func whatifRows(m, r *kineto.RankReport) []compare.Row {
	pairs := []struct {
		class string
		a, b  units.Time
	}{
		{"step", m.StepTime, r.StepTime}, {"window", m.Window, r.Window},
		{"compute", m.Compute, r.Compute}, {"communication", m.Communication, r.Communication},
		{"exposed communication", m.Exposed, r.Exposed}, {"idle", m.Idle, r.Idle},
	}
	rows := make([]compare.Row, len(pairs))
	for i, p := range pairs {
		rows[i] = compare.Row{Class: p.class, Measured: p.a, Simulated: p.b}
		if p.a > 0 {
			rows[i].Error = float64(p.b-p.a) / float64(p.a)
		}
	}
	return rows
}

// writeWhatif prints each rank's measured and what-if figures.
func writeWhatif(w io.Writer, f whatifFlags, measured, replayed []kineto.RankReport) error {
	ranks := make([]whatifRank, len(measured))
	for i := range measured {
		ranks[i] = whatifRank{GPU: measured[i].GPU, Name: measured[i].Name, File: measured[i].File, Rows: whatifRows(&measured[i], &replayed[i])}
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
		fmt.Fprintf(bw, "\n  %-22s %14s %14s %8s\n", "", "measured", "what-if", "change")
		for _, row := range r.Rows {
			fmt.Fprintf(bw, "  %-22s %14v %14v %+7.1f%%\n", row.Class, row.Measured, row.Simulated, 100*row.Error)
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
