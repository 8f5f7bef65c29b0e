package fault

import (
	"fmt"
	"io"
	"strings"

	"paraplay/sim/units"
)

// Lost is wall time that did not train, by cause.
type Lost struct {
	// Work is useful work that a failure rolled back (to the last
	// checkpoint, or the iteration in flight).
	Work units.Time `json:"lost_work_ns"`
	// Restart is time spent reloading and re-initialising.
	Restart units.Time `json:"restart_ns"`
	// Checkpoint is time spent writing checkpoints.
	Checkpoint units.Time `json:"checkpoint_ns"`
	// Detection is time between failures and their detection.
	Detection units.Time `json:"detection_ns"`
	// Reconfigure is time spent rebuilding groups (elastic, replan,
	// redundant, reroute).
	Reconfigure units.Time `json:"reconfigure_ns"`
	// Degraded is the throughput missing while the job runs slower than
	// healthy: a replica short, a re-planned layout, a redundancy overhead.
	Degraded units.Time `json:"degraded_ns"`
}

// Total is the sum of the losses.
func (l Lost) Total() units.Time {
	return l.Work + l.Restart + l.Checkpoint + l.Detection + l.Reconfigure + l.Degraded
}

// CauseCount is the number of failures of one cause and the time they
// cost.
type CauseCount struct {
	Cause string `json:"cause"`
	Count int    `json:"count"`
	// Lost is the work these failures rolled back, the detection, restart
	// and reconfiguration they caused, and the degraded running while
	// their nodes were away (shared evenly when several are); not the
	// checkpoints, a node's rejoining or a policy's steady overhead.
	Lost units.Time `json:"lost_ns"`
}

// Report is the outcome of a long run.
type Report struct {
	// Policy is the recovery policy.
	Policy string `json:"policy"`
	// Wall is the wall-clock time of the run.
	Wall units.Time `json:"wall_ns"`
	// Useful is the training work that survived, in healthy-iteration time.
	Useful units.Time `json:"useful_ns"`
	// Iterations is Useful in iterations.
	Iterations int64 `json:"iterations"`
	// Goodput is Useful / Wall.
	Goodput float64 `json:"goodput"`
	// EffectiveTraining is the share of wall time spent training on work
	// that survived, at whatever speed: Goodput plus Lost.Degraded / Wall
	// (the Llama 3 report's "effective training time").
	EffectiveTraining float64 `json:"effective_training_fraction"`
	// Lost splits Wall − Useful by cause.
	Lost Lost `json:"lost"`
	// Failures counts the failures that hit the job.
	Failures int `json:"failures"`
	// FailuresPerHour is Failures per hour of wall time.
	FailuresPerHour float64 `json:"failures_per_hour"`
	// ByCause splits Failures by cause, in the mix's order.
	ByCause []CauseCount `json:"by_cause"`
	// Checkpoints counts the checkpoints written in full.
	Checkpoints int `json:"checkpoints"`
	// MTBF is the job's mean time between failures, 1/(N·λ).
	MTBF units.Time `json:"mtbf_ns"`
	// CheckpointInterval is the interval the run used.
	CheckpointInterval units.Time `json:"checkpoint_interval_ns"`
	// YoungInterval is √(2·C·MTBF), Young's optimum interval.
	YoungInterval units.Time `json:"young_interval_ns"`
	// DalyInterval is Daly's higher-order optimum interval.
	DalyInterval units.Time `json:"daly_interval_ns"`
	// Phases is the run's wall time, in order and without gaps, as
	// stretches of one kind (see Phase); the app draws it. Left out of
	// JSON: a month holds thousands.
	Phases []Phase `json:"-"`
	// Hits are the failures that hit the job, in order of time.
	Hits []Hit `json:"-"`
}

// The kinds of Phase.
const (
	PhaseTrain       = "train"       // training whose work survived
	PhaseLost        = "lost"        // training whose work a later failure rolled back
	PhaseDetection   = "detection"   // waiting for the heartbeat timeout
	PhaseRestart     = "restart"     // reloading the last checkpoint
	PhaseCheckpoint  = "checkpoint"  // writing a checkpoint (finished or cut short)
	PhaseReconfigure = "reconfigure" // rebuilding groups
)

// Phase is a stretch of a long run's wall time spent one way.
type Phase struct {
	// Kind is one of the Phase* constants.
	Kind string
	// Start and End bound the stretch of wall time.
	Start, End units.Time
	// Useful is the work a train or lost phase did, in healthy time; the
	// rest of its wall time, End − Start − Useful, ran degraded.
	Useful units.Time
	// Cause is the failure cause a recovery phase answers, or "".
	Cause string
}

// Hit is one failure that hit the job.
type Hit struct {
	Failure
	// LostWork is the useful work it rolled back.
	LostWork units.Time
}

// Human prints a long duration in the unit that reads best: "42.0s",
// "13.6m", "3.09h", "27.04d".
func Human(t units.Time) string {
	s := t.Seconds()
	switch {
	case t == units.MaxTime:
		return "never"
	case s < 60:
		return fmt.Sprintf("%.1fs", s)
	case s < 3600:
		return fmt.Sprintf("%.1fm", s/60)
	case s < 86400:
		return fmt.Sprintf("%.2fh", s/3600)
	}
	return fmt.Sprintf("%.2fd", s/86400)
}

// WriteText prints the report for people.
func (r Report) WriteText(w io.Writer) error {
	pct := func(t units.Time) string {
		if r.Wall == 0 {
			return "0.0%"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(t)/float64(r.Wall))
	}
	var causes, blame []string
	for _, c := range r.ByCause {
		causes = append(causes, fmt.Sprintf("%s %d", c.Cause, c.Count))
		blame = append(blame, fmt.Sprintf("%s %s", c.Cause, Human(c.Lost)))
	}
	l := r.Lost
	_, err := fmt.Fprintf(w, `  policy                %s
  wall time             %s
  failures              %d  (%.3f per hour; job MTBF %s)  %s
  goodput               %.1f%%  (%s of useful training, %d iterations)
  effective training    %.1f%%  (training time that was kept, at any speed)
  lost time             %s  (%s)
    by failure cause    %s
    lost work           %s  (%s)  rolled back by failures
    restart             %s  (%s)  reload and re-initialise
    checkpoint writes   %s  (%s)  %d checkpoints
    detection           %s  (%s)  heartbeat timeouts
    reconfiguration     %s  (%s)  groups rebuilt
    degraded            %s  (%s)  throughput below healthy
  checkpoint interval   %s  (Young √(2·C·MTBF) = %s, Daly = %s)
`, r.Policy, Human(r.Wall), r.Failures, r.FailuresPerHour, Human(r.MTBF), strings.Join(causes, ", "),
		100*r.Goodput, Human(r.Useful), r.Iterations, 100*r.EffectiveTraining,
		Human(l.Total()), pct(l.Total()), strings.Join(blame, ", "), Human(l.Work), pct(l.Work), Human(l.Restart), pct(l.Restart),
		Human(l.Checkpoint), pct(l.Checkpoint), r.Checkpoints, Human(l.Detection), pct(l.Detection),
		Human(l.Reconfigure), pct(l.Reconfigure), Human(l.Degraded), pct(l.Degraded),
		Human(r.CheckpointInterval), Human(r.YoungInterval), Human(r.DalyInterval))
	return err
}

// WriteSweep prints a sweep as a table, marking its best interval and the
// one nearest Young's optimum.
func WriteSweep(w io.Writer, points []Point, young units.Time) error {
	best := Best(points)
	nearest := 0
	for i, p := range points {
		if absRatio(p.Interval, young) < absRatio(points[nearest].Interval, young) {
			nearest = i
		}
	}
	if _, err := fmt.Fprintf(w, "  %-10s %8s %9s %8s\n", "interval", "goodput", "Daly", "failures"); err != nil {
		return err
	}
	for i, p := range points {
		mark := ""
		if p == best {
			mark += "  ← best"
		}
		if i == nearest {
			mark += "  ← Young √(2·C·MTBF) = " + Human(young)
		}
		if _, err := fmt.Fprintf(w, "  %-10s %7.2f%% %8.2f%% %8d%s\n", Human(p.Interval), 100*p.Goodput, 100*p.Expected, p.Failures, mark); err != nil {
			return err
		}
	}
	return nil
}

// absRatio is how far apart a and b are, as a ratio ≥ 1.
func absRatio(a, b units.Time) float64 {
	r := a.Seconds() / b.Seconds()
	if r < 1 {
		return 1 / r
	}
	return r
}
