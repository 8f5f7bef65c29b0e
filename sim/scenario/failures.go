package scenario

import (
	"paraplay/sim/fault"
	"paraplay/sim/units"
)

// Limits on the failures section and the long-run recovery costs.
const (
	// MaxRepairTime bounds failures.repair_time: a year.
	MaxRepairTime = 365 * 24 * 3600 * units.Second
	// MaxFailureRate bounds failures per node per day.
	MaxFailureRate = 100.0
)

// Failures is the random process of node failures over a long run
// (paraplay run --duration or --iterations): a Poisson process per node
// with a cause mix (see package fault).
type Failures struct {
	// RatePerNodeDay is λ, failures per node per day, 0..MaxFailureRate
	// (0 = none); default fault.Llama3RatePerNodeDay ≈ 0.00379, from the
	// Llama 3 report's 419 interruptions in 54 days on 2,048 nodes.
	RatePerNodeDay float64 `yaml:"rate_per_node_day" json:"rate_per_node_day"`
	// Causes is the cause mix, "cause:weight,…" with causes from
	// fault.Causes; default fault.DefaultMix (Llama 3, Table 5). Software
	// causes crash the job but leave the node; the others take it away.
	Causes string `yaml:"causes" json:"causes"`
	// Seed drives the failure times; 0 means the scenario's seed.
	Seed uint64 `yaml:"seed" json:"seed"`
	// RepairTime is how long a lost node stays away before it (or a
	// spare) rejoins, 0..MaxRepairTime (default 2h, an assumption).
	// Checkpoint-restart restarts on spares at once; the other policies
	// run degraded meanwhile.
	RepairTime units.Time `yaml:"repair_time" json:"repair_time"`
	// Duration, when set, makes the scenario a long run of this much wall
	// time, 0..MaxRepairTime: paraplay run replays it without --duration,
	// and an article's demo prints its goodput in the caption.
	Duration units.Time `yaml:"duration" json:"duration"`
}

// DefaultFailures is the failures section of Default: the Llama 3 rate and
// cause mix.
func DefaultFailures() Failures {
	return Failures{RatePerNodeDay: fault.Llama3RatePerNodeDay, Causes: fault.DefaultMix, RepairTime: 2 * 3600 * units.Second}
}

// FailureSeed is the seed of the failure process: failures.seed, or the
// scenario's seed when that is 0.
func (s *Scenario) FailureSeed() uint64 {
	if s.Failures.Seed != 0 {
		return s.Failures.Seed
	}
	return s.Seed
}

// validateFailures checks the failures section and the long-run costs of
// the recovery section.
func (s *Scenario) validateFailures(bad Reporter) {
	if v := s.Recovery.ReconfigureCost; v < 0 || v > MaxRecoveryTime {
		bad("recovery.reconfigure_cost", "is %v; allowed 0s..%v", v, MaxRecoveryTime)
	}
	if v := s.Failures.RepairTime; v < 0 || v > MaxRepairTime {
		bad("failures.repair_time", "is %v; allowed 0s..%v", v, MaxRepairTime)
	}
	if v := s.Failures.Duration; v < 0 || v > MaxRepairTime {
		bad("failures.duration", "is %v; allowed 0s..%v (0 = not a long run)", v, MaxRepairTime)
	}
	if v := s.Failures.RatePerNodeDay; !(v >= 0 && v <= MaxFailureRate) { // also rejects NaN
		bad("failures.rate_per_node_day", "is %v; allowed 0..%v failures per node per day", v, MaxFailureRate)
	}
	// The default mix parses (fault's tests); the planner validates
	// thousands of scenarios that carry it.
	if c := s.Failures.Causes; c != fault.DefaultMix {
		if _, err := fault.ParseMix(c); err != nil {
			bad("failures.causes", "%v", err)
		}
	}
}
