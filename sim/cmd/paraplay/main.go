package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"paraplay/sim/budget"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/training"
)

const usage = `paraplay runs ParaPlay's distributed-training simulator headless.

Usage:
  paraplay run FILE [--json] [--fidelity F] [--trace out.json] [--timeline out.json] [--kineto out.json]
                               [--calibration cal.yaml] [--budget B]
  paraplay run FILE --duration 30d|--iterations N [--sweep-checkpoint] [--json] [--budget B]
                               a long run: failures, recovery and goodput (analytic)
  paraplay run --from-megatron "torchrun … pretrain_gpt.py FLAGS" [--gpu G] [run flags]
  paraplay run --from-torchtitan JOB.toml [--gpu G] [--gpus-per-node N] [run flags]
                               run the plan of a framework's launch configuration
                               (paraplay plan --emit megatron|torchtitan|deepspeed writes one)
  paraplay presets [--json]    the GPU and link presets, with their sources
  paraplay plan --model M --gpus N --global-batch B [flags]
                               search every parallel plan (paraplay plan -h for flags)
  paraplay collective [flags]  a simulated nccl-tests run (paraplay collective -h for flags)
  paraplay export FILE|--url URL --format gif|png|svg --out OUT [flags]
                               a picture or GIF for slides (paraplay export -h for flags)
  paraplay validate [--json]   the validation gallery: published measurements against the
                               simulator; exits 1 if an enforced row is outside its tolerance
  paraplay import TRACE... [--json] [--trace out.json]
                               PyTorch profiler (Kineto) traces, one per rank: what each rank
                               did, as run reports it (paraplay import -h)
  paraplay calibrate [--nccl-tests LOG]... [TRACE...] --out cal.yaml
                               fit link α and β and the GEMM efficiency scale to measurements
  paraplay compare FILE TRACE... [--trace both.json]
                               measured against simulated, op class by op class
  paraplay whatif TRACE... [--gpu NAME] [--network X] [--overlap] ...
                               replay measured traces with one thing changed: the new step
                               time beside the measured one (paraplay whatif -h)

  FILE             a scenario in YAML or JSON (e.g. sim/scenario/testdata/ring4.yaml)
  --json           print the summary as JSON instead of text
  --fidelity F     detailed (every message simulated), analytic (closed forms) or auto:
                   a training scenario's fidelity key (other strategies have one way to run)
  --trace FILE     write a Chrome trace (open it in ui.perfetto.dev or chrome://tracing)
  --timeline FILE  write the full timeline as JSON
  --kineto FILE    write one PyTorch-profiler (Kineto) trace per GPU: FILE-rank0.json, … (at most
                   1024 GPUs; .gz gzips them); paraplay import reads them back to the same run
  --calibration F  price the run with a calibration paraplay calibrate wrote (fitted link α and β,
                   GEMM efficiency scales)
  --duration D     a long run of D of wall time (e.g. 24h, 30d); see failures.* and recovery.*
  --iterations N   a long run until N iterations of useful work are done
  --sweep-checkpoint  with a long run: goodput against the checkpoint interval, around Young's optimum
  --budget B       the work a run may ask for, checked before it runs (over it: refused, exit 2):
                   cli (the default: 10M transfers, 12M spans, 60M events, 1.5GiB of memory, 4GB of trace),
                   browser (the web app's: 200k transfers, 500k spans, 2M events, 384MiB), or changes
                   to the default, e.g. --budget memory=4GiB,spans=50M (keys: events, transfers,
                   spans, memory, trace)

Exit status (every command): 0 done; 2 invalid input (an unknown command or
flag, a bad flag value, a scenario file that cannot be read, a scenario field
out of range, or a combination of them the simulator refuses); 1 a valid run
that failed (the simulation, or writing its output, e.g. a full disk).
`

// Exit codes, the same in every command: 2 when the input is at fault (the
// command line, the scenario), 1 when a valid run failed.
const (
	exitError = 1
	exitUsage = 2
)

// exitCode is exitUsage for an error that names a scenario field, else
// exitError: the strategies report what they refuse as scenario.FieldErrors.
func exitCode(err error) int {
	var fe *scenario.FieldError
	if errors.As(err, &fe) {
		return exitUsage
	}
	return exitError
}

func main() {
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
}

// Main runs the command with args and returns the exit status; tests call it
// directly.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	switch args[0] {
	case "run":
		return runCommand(args[1:], stdout, stderr)
	case "collective":
		return collectiveCommand(args[1:], stdout, stderr)
	case "presets":
		return presetsCommand(args[1:], stdout, stderr)
	case "export":
		return exportCommand(args[1:], stdout, stderr)
	case "plan":
		return planCommand(args[1:], stdout, stderr)
	case "validate":
		return validateCommand(args[1:], stdout, stderr)
	case "import":
		return importCommand(args[1:], stdout, stderr)
	case "calibrate":
		return calibrateCommand(args[1:], stdout, stderr)
	case "compare":
		return compareCommand(args[1:], stdout, stderr)
	case "whatif":
		return whatifCommand(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "paraplay: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}

type runFlags struct {
	long     longFlags
	json     bool
	fidelity string
	trace    string
	timeline string
	kineto   string
	calib    string
	budget   string
	imp      importFlags
}

// parseArgs parses args as parseInterleaved does. When ok is false the
// command ends with code: 0 after -h, the usage code after a bad flag (the
// flag package has printed why).
func parseArgs(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	pos, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, 0, false
	}
	if err != nil {
		return nil, exitUsage, false
	}
	return pos, 0, true
}

// parseInterleaved lets flags come before or after the file name.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	var f runFlags
	fs := flag.NewFlagSet("paraplay run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage, "\nFlags of paraplay run:\n"); fs.PrintDefaults() }
	fs.BoolVar(&f.json, "json", false, "print the summary as JSON")
	fs.StringVar(&f.fidelity, "fidelity", "", "detailed, analytic or auto (default: the scenario's fidelity)")
	fs.StringVar(&f.trace, "trace", "", "write a Chrome trace to this file")
	fs.StringVar(&f.timeline, "timeline", "", "write the timeline JSON to this file")
	fs.StringVar(&f.kineto, "kineto", "", "write one Kineto (PyTorch profiler) trace per GPU: FILE-rank0.json, …")
	fs.StringVar(&f.calib, "calibration", "", "price the run with this calibration (paraplay calibrate --out)")
	fs.StringVar(&f.budget, "budget", "cli", "the work budget: cli, browser, or key=value,… (events, transfers, spans, memory, trace)")
	f.long.register(fs)
	f.imp.register(fs)
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if want := 1 - f.imp.count(); len(pos) != want || want < 0 {
		fmt.Fprintf(stderr, "paraplay run: want exactly one scenario file or one --from-megatron / --from-torchtitan, got %d\n\n%s", len(pos)+f.imp.count(), usage)
		return exitUsage
	}
	limits, err := budget.Parse(f.budget)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay run: %v\n", err)
		return exitUsage
	}
	if f.trace == "" {
		limits.TraceBytes = math.Inf(1) // no trace is written
	}
	if f.imp.count() == 1 {
		pos = []string{f.imp.source()}
	}
	s, err := f.imp.load(pos[0])
	if err == nil && f.fidelity != "" {
		err = overrideFidelity(&s, f.fidelity)
	}
	if err == nil && f.calib != "" {
		err = applyCalibrationFile(&s, f.calib)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay: %s: invalid scenario:\n%s\n", pos[0], indent(err))
		return exitUsage
	}
	long := f.long.set() || s.Failures.Duration > 0
	if err := f.check(s, long); err != nil {
		fmt.Fprintf(stderr, "paraplay run: %v\n", err)
		return exitUsage
	}
	if long {
		return longCommand(pos[0], s, f.long, limits, f.json, stdout, stderr)
	}
	if err := run.CheckMirrored(s, limits); err != nil {
		fmt.Fprintf(stderr, "paraplay: %s: invalid scenario:\n%s\n", pos[0], indent(err))
		return exitUsage
	}
	tl, err := run.SimulateMirroredWithin(s, limits) // writeRun reads it through its summary and writers
	if err != nil {
		if code := exitCode(err); code == exitUsage {
			fmt.Fprintf(stderr, "paraplay: %s: invalid scenario:\n%s\n", pos[0], indent(err))
			return code
		}
		fmt.Fprintf(stderr, "paraplay: %s: %v\n", pos[0], err)
		return exitError
	}
	if err := writeRun(f, tl, stdout); err != nil {
		fmt.Fprintf(stderr, "paraplay: %v\n", err)
		return exitError
	}
	if !f.json {
		if err := writeTorusBook(stdout, s, tl); err != nil {
			fmt.Fprintf(stderr, "paraplay: %v\n", err)
			return exitError
		}
	}
	return 0
}

// check refuses flags the scenario cannot take: --kineto beyond
// maxKinetoRanks GPUs or on a long run, --fidelity detailed on a long run.
func (f runFlags) check(s scenario.Scenario, long bool) error {
	switch n := s.NumGPUs(); {
	case f.kineto != "" && n > maxKinetoRanks:
		return fmt.Errorf("--kineto writes one file per GPU; at most %d GPUs (the scenario has %d)", maxKinetoRanks, n)
	case long && f.kineto != "":
		return fmt.Errorf("--kineto: a long run writes no trace")
	case long && f.fidelity == "detailed":
		return fmt.Errorf("--fidelity detailed: a long run simulates its iteration analytically")
	}
	return nil
}

// writeRun prints the run's summary and writes the files the flags ask for.
func writeRun(f runFlags, tl *timeline.Timeline, stdout io.Writer) error {
	sum := tl.Summarize()
	var err error
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(sum)
	} else {
		err = sum.WriteText(stdout)
	}
	if err == nil && f.trace != "" {
		err = writeFile(f.trace, tl.WriteChromeTrace)
	}
	if err == nil && f.timeline != "" {
		err = writeFile(f.timeline, func(w io.Writer) error { return timeline.WriteJSON(tl, w) })
	}
	if err == nil && f.kineto != "" {
		err = writeKineto(f.kineto, tl)
	}
	return err
}

// overrideFidelity sets the scenario's fidelity from --fidelity and
// validates the result (a fidelity the scenario's size refuses is named
// there).
func overrideFidelity(s *scenario.Scenario, fidelity string) error {
	switch fidelity {
	case "detailed", "analytic", "auto":
	default:
		return fmt.Errorf("--fidelity %q; want detailed, analytic or auto", fidelity)
	}
	if fidelity != "auto" && s.Strategy != training.Name { // the others have one way to run; the key would be ignored
		return fmt.Errorf("--fidelity %s: only training scenarios choose a fidelity; a %s run has one (drop the flag)", fidelity, s.Strategy)
	}
	s.Fidelity = fidelity
	return s.Validate()
}

// writeFile writes path through write; when that fails (a full disk, a
// closed pipe), it removes the partial file and says which file it was.
func writeFile(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(out)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if fi, serr := os.Stat(path); serr == nil && fi.Mode().IsRegular() {
			os.Remove(path) // never a device such as /dev/full
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// indent prints each joined error on its own indented line.
func indent(err error) string {
	var lines []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		lines = j.Unwrap()
	} else {
		lines = []error{err}
	}
	out := ""
	for _, e := range lines {
		out += "  " + e.Error() + "\n"
	}
	return out[:len(out)-1]
}
