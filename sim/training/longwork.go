package training

import (
	"fmt"
	"math"
	"strconv"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// Bytes of a long run's record, per phase and per failure (a fault.Phase
// and a fault.Hit, doubled for the growth of their slices).
const (
	phaseBytes = 2 * 72
	hitBytes   = 2 * 64
)

// days writes a long time in days: "365d", "7d", "0.5d".
func days(t units.Time) string { return strconv.FormatFloat(t.Seconds()/86400, 'g', 4, 64) + "d" }

// LongWork bounds a long run of s over duration of wall time (NewLong and
// fault.Run): one analytic iteration (iterationWork), then the replay's
// phases. With τ the checkpoint interval (the iteration time, bounded below
// by the estimator's Work, when recovery.checkpoint_interval is 0), λ
// failures per node-day on N nodes over D days, the failures are at most
// μ + 6√μ + 10 with μ = λ·N·D (a Poisson count beyond that is below
// 10⁻⁹), and with C the checkpoint's cost
//
//	phases ≤ 2·(D/(τ + C) + 1) + 6·failures
//
// (a train and a checkpoint phase per interval; per failure a detection,
// a restart or reconfiguration, a repair's reconfiguration and the split
// of the train phase it rolls back). The replay scans the nodes under
// repair at each step: events ≤ phases·(1 + min(N, λ·N·repair/day + 1)).
func LongWork(s scenario.Scenario, duration units.Time) budget.Work {
	one := s
	one.Fidelity, one.Iterations, one.Faults = "analytic", 1, nil
	one.Failures.Duration = 0
	w, err := iterationWork(one)
	if err != nil {
		return budget.Work{Refused: err}
	}
	tau := s.Recovery.CheckpointInterval
	tauWhy := "recovery.checkpoint_interval " + tau.String()
	if tau <= 0 {
		tau = 1
		if est, err := NewEstimator().Quick(one); err == nil {
			tau = max(est.Work, 1)
		}
		tauWhy = "an iteration of at least " + tau.String() + " (recovery.checkpoint_interval 0: every iteration)"
	}
	nodes := float64(max(s.Cluster.Nodes, 1))
	mu := s.Failures.RatePerNodeDay * nodes * duration.Seconds() / 86400
	failures := mu + 6*math.Sqrt(mu) + 10
	// A cycle is τ of training, then the checkpoint's write of C.
	ckpts := float64(duration)/float64(tau+s.Recovery.CheckpointCost) + 1
	phases := 2*ckpts + 6*failures
	c := budget.Count{N: phases, Why: fmt.Sprintf("2 × (failures.duration %s ÷ (%s + recovery.checkpoint_cost %v))", days(duration), tauWhy, s.Recovery.CheckpointCost),
		Field: "recovery.checkpoint_interval", Fix: "raise recovery.checkpoint_interval or shorten failures.duration", Unit: "phases of the replay"}
	if 6*failures > 2*ckpts {
		c.Why = fmt.Sprintf("6 × (%g failures.rate_per_node_day × %g nodes × %s = %.2g failures)", s.Failures.RatePerNodeDay, nodes, days(duration), mu)
		c.Field, c.Fix = "failures.rate_per_node_day", "lower failures.rate_per_node_day, use fewer nodes or shorten failures.duration"
	}
	down := min(nodes, s.Failures.RatePerNodeDay*nodes*s.Failures.RepairTime.Seconds()/86400+1)
	long := budget.Work{Spans: c, Events: c.Times(1+down, fmt.Sprintf("(1 + %.3g nodes under repair)", down)),
		Memory:     budget.Count{N: phaseBytes*phases + hitBytes*failures, Why: c.Why, Field: c.Field, Fix: c.Fix},
		TraceBytes: budget.Count{}}
	return w.Plus(long)
}
