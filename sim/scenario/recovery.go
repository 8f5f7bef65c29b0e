package scenario

import (
	"paraplay/sim/fault"
	"slices"
	"strings"

	"paraplay/sim/units"
)

// Recovery policies after a fail-stop: package fault's, which costs them
// over a long run.
const (
	// PolicyCheckpointRestart: stop every GPU, restart the job (on a spare
	// for the failed GPU) and redo the work since the last checkpoint.
	PolicyCheckpointRestart = fault.CheckpointRestart
	// PolicyElastic: drop the failed GPU's data-parallel replica and go on
	// with the others (elastic data parallelism).
	PolicyElastic = fault.Elastic
	// PolicyReplan: shrink or regroup TP/PP/DP around the loss (ResiHP-style).
	PolicyReplan = fault.Replan
	// PolicyRedundant: redundant computation in pipeline bubbles (Bamboo).
	PolicyRedundant = fault.Redundant
	// PolicyReroute: send the failed stage's microbatches to its peers
	// (ReCycle, SWARM).
	PolicyReroute = fault.Reroute
	// PolicyResiHP: ResiHP's adaptive policy, animated: on a fail-slow
	// the detector flags, re-partition the layers by measured speed; on a
	// fail-stop, regroup TP/PP/DP over the healthy GPUs (sim/training's
	// resihp.go).
	PolicyResiHP = fault.ResiHP
)

// RecoveryPolicies lists the policies recovery.policy takes.
var RecoveryPolicies = fault.Policies

// AnimatedPolicies are the policies the iteration-by-iteration simulation
// (package run) animates; the others are costed by the long-run model.
var AnimatedPolicies = []string{PolicyCheckpointRestart, PolicyElastic, PolicyResiHP}

// MaxRecoveryTime bounds the recovery durations: one week.
const MaxRecoveryTime = 7 * 24 * 3600 * units.Second

// Recovery is what the job does when a GPU fails.
type Recovery struct {
	// Policy is checkpoint-restart, elastic, replan, redundant, reroute or
	// resihp.
	Policy string `yaml:"policy" json:"policy"`
	// CheckpointInterval is the time between checkpoints, 0..MaxRecoveryTime
	// (0: after every iteration). A checkpoint is taken at the end of the
	// first iteration that ends this long after the last one.
	CheckpointInterval units.Time `yaml:"checkpoint_interval" json:"checkpoint_interval"`
	// CheckpointCost is how long writing a checkpoint stalls training.
	CheckpointCost units.Time `yaml:"checkpoint_cost" json:"checkpoint_cost"`
	// RestartCost is the time from the decision to restart to training
	// again: rescheduling, loading the checkpoint, warming up.
	RestartCost units.Time `yaml:"restart_cost" json:"restart_cost"`
	// HeartbeatTimeout is how long peers wait on a silent GPU before
	// declaring it dead (NCCL's watchdog, the launcher's heartbeat).
	HeartbeatTimeout units.Time `yaml:"heartbeat_timeout" json:"heartbeat_timeout"`
	// ReconfigureCost is the time the elastic, replan, redundant and
	// reroute policies of a long run take to rebuild their groups when a
	// node leaves or rejoins, and the animated resihp policy's
	// communicator rebuild when it regroups, 0..MaxRecoveryTime (default
	// 1m, an estimate).
	ReconfigureCost units.Time `yaml:"reconfigure_cost" json:"reconfigure_cost"`
}

// DefaultRecovery is checkpoint-restart with times of the order large
// jobs report: a checkpoint every 30 min costing 30 s, a 10 min restart
// and a 30 s heartbeat timeout (estimates, not measurements).
func DefaultRecovery() Recovery {
	return Recovery{Policy: PolicyCheckpointRestart, CheckpointInterval: 1800 * units.Second,
		CheckpointCost: 30 * units.Second, RestartCost: 600 * units.Second, HeartbeatTimeout: 30 * units.Second,
		ReconfigureCost: 60 * units.Second}
}

// validateRecovery checks the recovery section.
func (s *Scenario) validateRecovery(bad Reporter) {
	r := s.Recovery
	if !slices.Contains(RecoveryPolicies, r.Policy) {
		bad("recovery.policy", "%q is not known; allowed: %s", r.Policy, strings.Join(RecoveryPolicies, ", "))
	}
	for _, f := range []struct {
		field string
		v     units.Time
	}{{"recovery.checkpoint_interval", r.CheckpointInterval}, {"recovery.checkpoint_cost", r.CheckpointCost},
		{"recovery.restart_cost", r.RestartCost}, {"recovery.heartbeat_timeout", r.HeartbeatTimeout}} {
		if f.v < 0 || f.v > MaxRecoveryTime {
			bad(f.field, "is %v; allowed 0s..%v", f.v, MaxRecoveryTime)
		}
	}
}

// Stops reports whether the faults stop a GPU (fail_stop or preempt).
func (s *Scenario) Stops() bool {
	for _, f := range s.Faults {
		if f.Kind == FailStop || f.Kind == Preempt {
			return true
		}
	}
	return false
}

// validateAnimatedRecovery checks that a run whose faults stop a GPU asks
// for a policy the iteration simulation animates.
func (s *Scenario) validateAnimatedRecovery(bad Reporter) {
	if s.Stops() && slices.Contains(RecoveryPolicies, s.Recovery.Policy) && !slices.Contains(AnimatedPolicies, s.Recovery.Policy) {
		bad("recovery.policy", "%s is costed by the long-run model only; a faults list that stops a GPU animates %s",
			s.Recovery.Policy, strings.Join(AnimatedPolicies, ", "))
	}
	if s.Stops() && s.Recovery.Policy == PolicyElastic && s.Parallel.DP < 2 {
		bad("recovery.policy", "elastic drops a data-parallel replica; parallel.dp is %d, it needs at least 2", s.Parallel.DP)
	}
}
