package fault

import (
	"fmt"

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
