package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"

	"paraplay/sim/budget"
	"paraplay/sim/cost"
	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// longFlags are the flags of a long run.
type longFlags struct {
	duration   units.Time
	iterations int64
	sweep      bool
}

func (l *longFlags) register(fs *flag.FlagSet) {
	fs.Func("duration", "a long run of this much wall time, e.g. 24h or 30d", func(v string) error {
		d, err := units.ParseTime(v)
		if err == nil && d <= 0 {
			err = fmt.Errorf("want a duration > 0")
		}
		l.duration = d
		return err
	})
	fs.Int64Var(&l.iterations, "iterations", 0, "a long run until this many iterations of useful work are done")
	fs.BoolVar(&l.sweep, "sweep-checkpoint", false, "with a long run: goodput against the checkpoint interval")
}

// days writes a long time in days: "365d", "100000d".
func days(t units.Time) string {
	return strconv.FormatFloat(t.Seconds()/86400, 'g', 6, 64) + "d"
}

// checkLong validates s and holds its long run of duration (0 when
// --iterations sets it) to the budget: the one analytic iteration and the
// replay's phases (training.LongWork).
func checkLong(s scenario.Scenario, duration units.Time, limits budget.Limits) error {
	if duration > 0 {
		s.Failures.Duration = duration
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if s.Strategy != training.Name {
		return nil // NewLong says what is missing
	}
	// With --iterations the duration is not known yet: this bounds the
	// one analytic iteration, and the caller the replay once it is.
	return limits.Check(training.LongWork(s, duration))
}

// set reports whether the command line asks for a long run.
func (l longFlags) set() bool { return l.duration > 0 || l.iterations != 0 || l.sweep }

// sweepPoints is the number of checkpoint intervals of a sweep: from ⅛ to
// 8× Young's optimum, a quarter octave apart.
const sweepPoints = 25

// longOutput is the JSON of a long run.
type longOutput struct {
	Title         string        `json:"title"`
	Fidelity      string        `json:"fidelity"`
	IterationNS   units.Time    `json:"iteration_ns"`
	TokensPerSec  float64       `json:"tokens_per_s"`
	Report        fault.Report  `json:"report"`
	Sweep         []fault.Point `json:"sweep,omitempty"`
	BestInterval  units.Time    `json:"best_interval_ns,omitempty"`
	YoungInterval units.Time    `json:"young_interval_ns"`
	SweepBaseline string        `json:"sweep_expected,omitempty"`
	// Cost is the run's rent and energy, per useful token, and the token
	// budget at its goodput (package cost).
	Cost *cost.LongEstimate `json:"cost,omitempty"`
}

func longCommand(file string, s scenario.Scenario, f longFlags, limits budget.Limits, asJSON bool, stdout, stderr io.Writer) int {
	if f.iterations < 0 {
		fmt.Fprintf(stderr, "paraplay run: --iterations is %d; want > 0\n", f.iterations)
		return exitUsage
	}
	if f.duration > scenario.MaxRepairTime {
		fmt.Fprintf(stderr, "paraplay run: --duration is %s; allowed up to %s (the cap of failures.duration)\n", days(f.duration), days(scenario.MaxRepairTime))
		return exitUsage
	}
	if f.duration == 0 && f.iterations == 0 {
		f.duration = s.Failures.Duration
	}
	if f.duration == 0 && f.iterations == 0 {
		fmt.Fprintf(stderr, "paraplay run: --sweep-checkpoint needs --duration, --iterations or failures.duration\n")
		return exitUsage
	}
	if s.Strategy != training.Name { // input, not a failed run
		fmt.Fprintf(stderr, "paraplay: %s: a long run needs a training scenario (model, parallel, cluster); this one is %s\n", file, s.Strategy)
		return exitUsage
	}
	if err := checkLong(s, f.duration, limits); err != nil {
		fmt.Fprintf(stderr, "paraplay: %s: invalid scenario:\n%s\n", file, indent(err))
		return exitUsage
	}
	l, err := training.NewLong(s, f.duration, f.iterations)
	if err != nil {
		fmt.Fprintf(stderr, "paraplay: %s: %v\n", file, err)
		return exitCode(err)
	}
	if f.iterations > 0 {
		// The wall time is known once the iteration is: bound the replay of
		// twice the work (a run that loses half its time to failures).
		work := float64(f.iterations) * float64(l.Summary.Iteration)
		if work > float64(scenario.MaxRepairTime) {
			fmt.Fprintf(stderr, "paraplay run: --iterations %d of %v is %s of work; at most %s (the cap of failures.duration)\n",
				f.iterations, l.Summary.Iteration, days(units.Time(work)), days(scenario.MaxRepairTime))
			return exitUsage
		}
		if err := limits.Check(training.LongWork(s, units.Time(2*work))); err != nil {
			fmt.Fprintf(stderr, "paraplay: %s: invalid scenario:\n%s\n", file, indent(err))
			return exitUsage
		}
	}
	rep, err := l.Run()
	if err != nil {
		fmt.Fprintf(stderr, "paraplay: %s: %v\n", file, err)
		return exitError
	}
	out := longOutput{Title: s.Title(), Fidelity: l.Summary.Fidelity, IterationNS: l.Summary.Iteration,
		TokensPerSec: l.Summary.TokensPerSecond, Report: rep, YoungInterval: rep.YoungInterval}
	out.Cost = longCost(l.Summary, rep)
	if f.sweep {
		if rep.YoungInterval == 0 {
			fmt.Fprintf(stderr, "paraplay: %s: no failures (failures.rate_per_node_day is 0): nothing to sweep\n", file)
			return exitUsage
		}
		out.Sweep, err = fault.Sweep(l.Config, fault.Intervals(rep.YoungInterval, sweepPoints))
		if err != nil {
			fmt.Fprintf(stderr, "paraplay: %s: %v\n", file, err)
			return exitError
		}
		out.BestInterval = fault.Best(out.Sweep).Interval
		out.SweepBaseline = "Daly 2006, checkpoint-restart"
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	} else {
		err = writeLong(stdout, out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "paraplay: %v\n", err)
		return exitError
	}
	return 0
}

func writeLong(w io.Writer, o longOutput) error {
	if _, err := fmt.Fprintf(w, "%s: long run (%s iteration, simulated once)\n  iteration time        %v  (%.0f tokens/s when healthy)\n",
		o.Title, o.Fidelity, o.IterationNS, o.TokensPerSec); err != nil {
		return err
	}
	if err := o.Report.WriteText(w); err != nil {
		return err
	}
	writeLongCost(w, o.Cost)
	if o.Sweep == nil {
		return nil
	}
	if _, err := fmt.Fprintf(w, "goodput against the checkpoint interval (same failures each time; Daly = expected goodput of checkpoint-restart):\n"); err != nil {
		return err
	}
	if err := fault.WriteSweep(w, o.Sweep, o.YoungInterval); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "  best interval %s; Young's optimum %s\n", fault.Human(o.BestInterval), fault.Human(o.YoungInterval))
	return err
}

// longCost prices the long run rep of the healthy iteration sum: the GPUs
// are rented for the whole wall time and draw the iteration's power while
// they train (work kept, work rolled back, degraded running) and their
// idle power during detection, restarts, checkpoint writes and
// reconfiguration (cost.OfLong). Nil for a run without catalog GPUs.
func longCost(sum timeline.Summary, rep fault.Report) *cost.LongEstimate {
	it, set, tokens, ok := sum.CostIteration()
	if !ok {
		return nil
	}
	l := rep.Lost
	idle := l.Restart + l.Checkpoint + l.Detection + l.Reconfigure
	e := cost.OfLong(it, cost.Long{Wall: rep.Wall.Seconds(), Training: max(0, rep.Wall-idle).Seconds(),
		Iterations: float64(rep.Iterations)}, tokens, set)
	return &e
}

// writeLongCost prints what the long run cost and, with a token budget,
// what the budget costs at its goodput.
func writeLongCost(w io.Writer, e *cost.LongEstimate) {
	if e == nil {
		return
	}
	fmt.Fprintf(w, "  cost                  $%s for the run, $%.4g per million useful tokens; %sWh, PUE included\n",
		cost.Short(e.CostUSD), e.USDPerMillion, cost.Short(e.EnergyKWh*1e3))
	if b := e.Budget; b != nil {
		rate := fmt.Sprintf("$%.2f/GPU-hour", b.GPUHour)
		if b.Assumed {
			rate += " (assumed rate)"
		}
		fmt.Fprintf(w, "  %-21s %.1f days at this goodput, %s GPU-hours, $%s at %s; %sWh, %s t CO2 at %g kg/kWh\n",
			"to train "+cost.FormatTokens(b.Tokens)+" tokens", b.Days, cost.Short(b.GPUHours), cost.Short(b.CostUSD), rate,
			cost.Short(b.EnergyKWh*1e3), cost.Short(b.CO2Kg/1e3), b.GridKgPerKWh)
	}
}
