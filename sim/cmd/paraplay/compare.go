package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"paraplay/sim/compare"
	"paraplay/sim/kineto"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

const compareUsage = `paraplay compare runs the scenario that describes a traced job and sets it
beside the PyTorch profiler traces (one per rank): for each traced rank and
op class (the step, compute, communication by collective, exposed
communication, idle), the measured time per profiler step, the simulated
time and the error; and, with --trace, one Chrome trace holding both (a
measured and a simulated process per rank) for Perfetto.

Usage:
  paraplay compare FILE TRACE... [--calibration cal.yaml] [--fidelity F] [--json] [--trace both.json]

The traces' ranks (distributedInfo) name the simulated GPUs they are set
beside. Exit status: 0 done; 2 a scenario or trace that cannot be read, or
a rank the scenario lacks; 1 the simulation or writing an output failed.

Flags:
`

func compareCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paraplay compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, compareUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the comparison as JSON")
	trace := fs.String("trace", "", "write both runs as one Chrome trace to this file")
	calib := fs.String("calibration", "", "price the simulation with this calibration (paraplay calibrate --out)")
	fidelity := fs.String("fidelity", "", "detailed, analytic or auto: a training scenario's fidelity")
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(pos) < 2 {
		fmt.Fprintf(stderr, "paraplay compare: want a scenario file and at least one trace\n\n%s", compareUsage)
		return exitUsage
	}
	s, err := compareScenario(pos[0], *fidelity, *calib)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay compare: %v\n", err)
		return exitUsage
	}
	traces, err := readTraces(pos[1:])
	var measured *timeline.Timeline
	var reports []kineto.RankReport
	if err == nil {
		if measured, err = kineto.Timeline(traces); err == nil {
			reports, err = kineto.Analyze(traces)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay compare: %v\n", err)
		return exitUsage
	}
	sim, err := run.Simulate(s)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay compare: %s: %v\n", pos[0], err)
		return exitCode(err)
	}
	return finishCompare(sim, measured, reports, *asJSON, *trace, stdout, stderr)
}

// compareScenario reads the scenario with its fidelity and calibration.
func compareScenario(path, fidelity, calib string) (scenario.Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return scenario.Scenario{}, err
	}
	s, err := scenario.Parse(data)
	if err == nil && fidelity != "" {
		err = overrideFidelity(&s, fidelity)
	}
	if err == nil && calib != "" {
		err = applyCalibrationFile(&s, calib)
	}
	if err != nil {
		return s, fmt.Errorf("%s: invalid scenario:\n%s", path, indent(err))
	}
	if s.NumGPUs() > maxKinetoRanks {
		return s, fmt.Errorf("%s: %d GPUs; compare simulates at most %d", path, s.NumGPUs(), maxKinetoRanks)
	}
	return s, nil
}

// finishCompare pairs the ranks, prints the comparison and writes the
// combined trace.
func finishCompare(sim, measured *timeline.Timeline, reports []kineto.RankReport, asJSON bool, trace string, stdout, stderr io.Writer) int {
	gpus, err := compare.Pairs(reports, sim)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay compare: %v\n", err)
		return exitUsage
	}
	simReports, err := compare.Simulated(sim, gpus)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay compare: %v\n", err)
		return exitError
	}
	ranks := compare.Compare(reports, simReports, gpus)
	if err := writeComparison(sim, measured, ranks, asJSON, stdout); err != nil {
		fmt.Fprintf(stderr, "paraplay compare: %v\n", err)
		return exitError
	}
	if trace == "" {
		return 0
	}
	both, err := compare.Combine(measured, sim, gpus)
	if err == nil {
		err = writeFile(trace, both.WriteChromeTrace)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay compare: %v\n", err)
		return exitError
	}
	return 0
}

// writeComparison prints the ranks' rows, as text or JSON.
func writeComparison(sim, measured *timeline.Timeline, ranks []compare.Rank, asJSON bool, w io.Writer) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Scenario string         `json:"scenario"`
			Fidelity string         `json:"fidelity"`
			Traces   string         `json:"traces"`
			Ranks    []compare.Rank `json:"ranks"`
		}{sim.Title, sim.Fidelity, measured.Title, ranks})
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s (%s simulation) beside %s\n", sim.Title, sim.Fidelity, measured.Title)
	for _, r := range ranks {
		fmt.Fprintf(bw, "%s (simulated GPU %d; measured: mean of %d profiler steps)\n", r.Name, r.GPU, r.Steps)
		fmt.Fprintf(bw, "  %-34s %14s %14s %9s\n", "per step", "measured", "simulated", "error")
		for _, row := range r.Rows {
			sim, e := row.Simulated.String(), fmt.Sprintf("%+.1f%%", 100*row.Error)
			if row.Simulated < 0 {
				sim, e = "-", "-"
			} else if row.Measured == 0 {
				e = "-"
			}
			fmt.Fprintf(bw, "  %-34s %14v %14s %9s\n", row.Class, row.Measured, sim, e)
		}
	}
	return bw.Flush()
}
