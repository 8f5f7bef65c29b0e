package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"paraplay/sim/calibrate"
	"paraplay/sim/hw"
	"paraplay/sim/kineto"
	"paraplay/sim/nccllog"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

const calibrateUsage = `paraplay calibrate fits the simulator to one cluster's measurements and
writes a calibration that later runs price with (paraplay run FILE
--calibration cal.yaml, paraplay compare FILE TRACE... --calibration cal.yaml):

  - a link's α and bandwidth, by least squares on the collective's own
    closed form (t = α·A + β·F, A and F from collective.Time for the
    operation, algorithm, ranks and size), from nccl-tests logs (the text
    all_reduce_perf and the others print) or, without logs, from the NCCL
    kernels of PyTorch profiler traces (their args give size and group);
  - each traced GPU's GEMM efficiency scale against sim/gemm, from the
    traces' GEMM kernels whose host operator recorded its shapes.

It prints every fit with its residuals.

Usage:
  paraplay calibrate [--nccl-tests LOG,LOG] [--link NAME] [TRACE...] [--out cal.yaml] [flags]

Examples:
  paraplay calibrate --nccl-tests all_reduce.log --link nvlink3 --out cal.yaml
  paraplay calibrate ../shared/traces/kineto-nccl-2rank-rank0.json.gz --link ib-hdr

Exit status: 0 done; 2 bad flags, a file that cannot be read or nothing to
fit; 1 writing the calibration failed.

Flags:
`

// calibrateFlags are the command's settings.
type calibrateFlags struct {
	logs, link, gpu, op, algo, out string
	ranks                          int
	json                           bool
}

// calibration is everything calibrate fitted, as --json prints it.
type calibration struct {
	LogFit   *calibrate.LinkFit  `json:"nccl_tests_fit,omitempty"`
	TraceFit *calibrate.LinkFit  `json:"trace_nccl_fit,omitempty"`
	GEMM     []calibrate.GEMMFit `json:"gemm_fits,omitempty"`
	Link     string              `json:"link,omitempty"`
	Written  *hw.Calibration     `json:"calibration"`
	notes    []string
}

func calibrateCommand(args []string, stdout, stderr io.Writer) int {
	var f calibrateFlags
	fs := flag.NewFlagSet("paraplay calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, calibrateUsage); fs.PrintDefaults() }
	fs.StringVar(&f.logs, "nccl-tests", "", "nccl-tests output logs, comma-separated")
	fs.StringVar(&f.link, "link", "", "the link preset (paraplay presets) the link fit calibrates, or ideal")
	fs.StringVar(&f.gpu, "gpu", "", "the GPU preset of the traces' GEMMs (default: from their deviceProperties)")
	fs.StringVar(&f.op, "op", "", "the collective the logs measured, when they do not say (all_reduce, all_gather, …)")
	fs.StringVar(&f.algo, "algo", "ring", "the algorithm that prices the logs' collective")
	fs.IntVar(&f.ranks, "ranks", 0, "the logs' rank count, when they list no Rank lines")
	fs.StringVar(&f.out, "out", "", "write the calibration to this file")
	fs.BoolVar(&f.json, "json", false, "print the fits as JSON")
	traces, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	c, err := f.fit(traces)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay calibrate: %v\n", err)
		return exitUsage
	}
	if err := writeCalibration(c, f.json, stdout); err != nil {
		fmt.Fprintf(stderr, "paraplay calibrate: %v\n", err)
		return exitError
	}
	if f.out != "" {
		data := calibrate.Marshal(c.Written, c.notes)
		if err := writeFile(f.out, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			fmt.Fprintf(stderr, "paraplay calibrate: %v\n", err)
			return exitError
		}
		if !f.json {
			fmt.Fprintf(stdout, "wrote %s\n", f.out)
		}
	}
	return 0
}

// fit runs every fit the flags and traces ask for.
func (f calibrateFlags) fit(traces []string) (*calibration, error) {
	if f.ranks < 0 || f.ranks > 1<<20 {
		return nil, fmt.Errorf("--ranks %d: want 0 (the log's) to %d", f.ranks, 1<<20)
	}
	c := &calibration{Link: f.link, Written: &hw.Calibration{}}
	logPoints, err := f.logPoints()
	if err != nil {
		return nil, err
	}
	if len(logPoints) > 0 {
		fit, err := calibrate.FitLink(logPoints)
		if err != nil {
			return nil, err
		}
		c.LogFit = &fit
	}
	if err := c.fitTraces(traces, f.gpu); err != nil {
		return nil, err
	}
	use := c.LogFit
	if use == nil {
		use = c.TraceFit
	}
	if use == nil && len(c.GEMM) == 0 {
		return nil, errors.New("nothing to fit: give nccl-tests logs (--nccl-tests), or traces with sized NCCL kernels or GEMM shapes")
	}
	if use != nil {
		if f.link == "" {
			return nil, errors.New("--link: name the link preset the fit calibrates (paraplay presets lists them; ideal for a scenario's link.*)")
		}
		if _, err := hw.LookupLink(f.link); err != nil && f.link != hw.IdealLink {
			return nil, fmt.Errorf("--link: %w", err)
		}
		c.Written.Links = map[string]hw.LinkFit{f.link: {Bandwidth: use.Bandwidth, Latency: use.Alpha}}
		s := calibrate.SpreadOf(use.Residuals)
		c.notes = append(c.notes, fmt.Sprintf("links.%s: %d measurements, residuals median %.2f%%, max %.2f%%", f.link, len(use.Points), 100*s.Median, 100*s.Max))
	}
	for _, g := range c.GEMM {
		if c.Written.GEMMScale == nil {
			c.Written.GEMMScale = map[string]float64{}
		}
		c.Written.GEMMScale[g.GPU] = g.Scale
		s := calibrate.SpreadOf(g.Residuals)
		c.notes = append(c.notes, fmt.Sprintf("gemm_scale.%s: %d GEMMs, residuals median %.1f%%, max %.1f%%", g.GPU, len(g.Points), 100*s.Median, 100*s.Max))
	}
	return c, calibrate.Validate(c.Written)
}

// logPoints reads the nccl-tests logs into points.
func (f calibrateFlags) logPoints() ([]calibrate.Point, error) {
	var points []calibrate.Point
	for _, path := range strings.Split(f.logs, ",") {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		file, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		l, err := nccllog.Parse(io.LimitReader(file, 16<<20))
		file.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		p, err := calibrate.LogPoints(l, filepath.Base(path), f.op, f.algo, f.ranks)
		if err != nil {
			return nil, err
		}
		points = append(points, p...)
	}
	return points, nil
}

// fitTraces fits the link to the traces' NCCL kernels and each GPU's GEMM
// scale to their GEMMs.
func (c *calibration) fitTraces(paths []string, gpuFlag string) error {
	if len(paths) == 0 {
		return nil
	}
	traces, err := readTraces(paths)
	if err != nil {
		return err
	}
	var points []calibrate.Point
	for _, t := range traces { // each alone: they may come from different jobs
		reps, err := kineto.Analyze([]*kineto.Trace{t})
		if err != nil {
			return err
		}
		for _, r := range reps {
			points = append(points, calibrate.TracePoints(r)...)
		}
	}
	if len(points) >= 2 {
		if fit, err := calibrate.FitLink(points); err == nil {
			c.TraceFit = &fit
		}
	}
	return c.fitGEMMs(traces, gpuFlag)
}

// fitGEMMs fits one scale per GPU preset over the traces' GEMMs.
func (c *calibration) fitGEMMs(traces []*kineto.Trace, gpuFlag string) error {
	byGPU := map[string][]calibrate.GEMMPoint{}
	skipped := map[string]int{}
	var order []string
	for _, t := range traces {
		name, err := tracePreset(t, gpuFlag)
		if err != nil {
			return err
		}
		g, err := hw.LookupGPU(name)
		if err != nil {
			return fmt.Errorf("--gpu: %w", err)
		}
		p, skip, err := calibrate.GEMMPoints(t, g)
		if err != nil {
			continue // a GPU the GEMM model has no parameters for
		}
		if _, seen := byGPU[name]; !seen {
			order = append(order, name)
		}
		byGPU[name] = append(byGPU[name], p...)
		skipped[name] += skip
	}
	for _, name := range order {
		if fit, err := calibrate.FitGEMM(name, byGPU[name], skipped[name]); err == nil {
			c.GEMM = append(c.GEMM, fit)
		}
	}
	return nil
}

// tracePreset is the GPU preset of a trace's GEMMs: --gpu, else its first
// listed device's.
func tracePreset(t *kineto.Trace, gpuFlag string) (string, error) {
	if gpuFlag != "" {
		return gpuFlag, nil
	}
	for _, d := range t.Devices {
		if p, ok := calibrate.Preset(d.Name, d.Memory); ok {
			return p, nil
		}
		return "", fmt.Errorf("%s: no GPU preset matches device %q: name one with --gpu", t.Name, d.Name)
	}
	return "", fmt.Errorf("%s: the trace lists no deviceProperties: name its GPU preset with --gpu", t.Name)
}

// writeCalibration prints the fits.
func writeCalibration(c *calibration, asJSON bool, w io.Writer) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	bw := bufio.NewWriter(w)
	if c.LogFit != nil {
		writeLinkFit(bw, "nccl-tests logs", c.Link, c.LogFit, true)
	}
	if c.TraceFit != nil {
		writeLinkFit(bw, "the traces' NCCL kernels", c.Link, c.TraceFit, c.LogFit == nil)
	}
	for i := range c.GEMM {
		writeGEMMFit(bw, &c.GEMM[i])
	}
	return bw.Flush()
}

// writeLinkFit prints a link fit and its residuals, point by point.
func writeLinkFit(w io.Writer, from, link string, f *calibrate.LinkFit, written bool) {
	state := "written"
	if !written {
		state = "not written: the nccl-tests fit is"
	}
	fmt.Fprintf(w, "link %s from %s (%d measurements; %s)\n", orDefault(link, "?"), from, len(f.Points), state)
	fmt.Fprintf(w, "  α = %v per message, bandwidth = %.2f GB/s (β = %.4g ns/B)", f.Alpha, float64(f.Bandwidth)/1e9, 1e9/float64(f.Bandwidth))
	if f.AlphaClamped {
		fmt.Fprint(w, "; α held at 0 (the free fit was negative)")
	}
	s := calibrate.SpreadOf(f.Residuals)
	fmt.Fprintf(w, "\n  residuals             median %.2f%%, max %.2f%%, rms %.2f%%\n", 100*s.Median, 100*s.Max, 100*s.RMS)
	fmt.Fprintf(w, "    %12s %12s %12s %8s  %s\n", "size", "measured", "fitted", "error", "point")
	for i, p := range f.Points {
		fmt.Fprintf(w, "    %12v %12v %12v %7.2f%%  %s\n", p.Bytes, units.Round(p.Time), units.Round(f.Fitted[i]), 100*f.Residuals[i], p.Label)
	}
}

// writeGEMMFit prints a GEMM scale fit's summary.
func writeGEMMFit(w io.Writer, g *calibrate.GEMMFit) {
	s, m := calibrate.SpreadOf(g.Residuals), calibrate.SpreadOf(g.ModelResiduals)
	fmt.Fprintf(w, "GEMM efficiency on %s from %d GEMMs with shapes (%d GEMM kernels without a priceable shape)\n", g.GPU, len(g.Points), g.Skipped)
	fmt.Fprintf(w, "  scale                 %.4g (the GEMM model's efficiency × %.4g)\n", g.Scale, g.Scale)
	fmt.Fprintf(w, "  residuals             after the fit median %.1f%%, max %.1f%%; the model alone median %.1f%%, max %.1f%%\n",
		100*s.Median, 100*s.Max, 100*m.Median, 100*m.Max)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// applyCalibrationFile reads a calibration file into the scenario: the
// links of its cluster (or, without one, its ideal links) and its GPUs'
// GEMM scales, then validates the scenario.
func applyCalibrationFile(s *scenario.Scenario, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--calibration: %w", err)
	}
	c, err := calibrate.Parse(data)
	if err != nil {
		return fmt.Errorf("--calibration %s: %w", path, err)
	}
	s.Calibration = c
	if f, ok := c.Links[hw.IdealLink]; ok && s.Cluster.GPU == "" {
		s.Link.Bandwidth, s.Link.Latency = f.Bandwidth, f.Latency
	}
	return s.Validate()
}
