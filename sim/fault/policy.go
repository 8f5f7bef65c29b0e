package fault

import (
	"errors"
	"fmt"

	"paraplay/sim/units"
)

// Recovery policies (the same names as the scenario's recovery.policy).
const (
	CheckpointRestart = "checkpoint-restart"
	Elastic           = "elastic"
	Replan            = "replan"
	Redundant         = "redundant"
	Reroute           = "reroute"
	// ResiHP is the adaptive policy of ResiHP (2026), animated iteration
	// by iteration in sim/training; a long run, whose failures are node
	// losses, costs it as Replan.
	ResiHP = "resihp"
)

// Policies lists the recovery policies.
var Policies = []string{CheckpointRestart, Elastic, Replan, Redundant, Reroute, ResiHP}

// Job is what the recovery models need to know about the training job. The
// training simulator supplies it from one simulated iteration.
type Job struct {
	// Nodes is the number of servers, N.
	Nodes int
	// Iteration is T, the time of one healthy iteration.
	Iteration units.Time
	// Replicas is dp, the data-parallel replicas; replica r holds nodes
	// r·N/dp … (r+1)·N/dp − 1 (data parallelism outermost, as Megatron
	// orders ranks).
	Replicas int
	// Stages is p, the pipeline stages of a replica.
	Stages int
	// Microbatches is m, the microbatches per iteration per replica.
	Microbatches int
	// Compute is the compute time of one GPU in one iteration.
	Compute units.Time
	// ForwardShare is the forward pass's share of Compute (⅓ when the
	// backward costs twice the forward).
	ForwardShare float64
	// Bubble is the idle time of one GPU in one iteration: the pipeline
	// bubble that redundant computation and rerouting fill.
	Bubble units.Time
	// Replan returns the job's throughput, relative to healthy, after
	// re-planning its layout on what is left when lost replicas each lost
	// a node. Only the replan policy calls it, once per distinct count.
	Replan func(lost int) (float64, error)
}

// Validate checks the job.
func (j Job) Validate() error {
	var errs []error
	if j.Nodes < 1 {
		errs = append(errs, fmt.Errorf("job: nodes is %d; want at least 1", j.Nodes))
	}
	if j.Iteration <= 0 {
		errs = append(errs, fmt.Errorf("job: iteration time is %v; want > 0", j.Iteration))
	}
	if j.Replicas < 1 || j.Nodes%max(1, j.Replicas) != 0 {
		errs = append(errs, fmt.Errorf("job: %d replicas do not divide %d nodes", j.Replicas, j.Nodes))
	}
	if j.Stages < 1 || j.Microbatches < 1 {
		errs = append(errs, fmt.Errorf("job: %d stages and %d microbatches; want ≥ 1 each", j.Stages, j.Microbatches))
	}
	if j.Compute < 0 || j.Bubble < 0 || !(j.ForwardShare >= 0 && j.ForwardShare <= 1) {
		errs = append(errs, fmt.Errorf("job: compute %v, bubble %v, forward share %v; want ≥ 0 and a share in 0..1", j.Compute, j.Bubble, j.ForwardShare))
	}
	return errors.Join(errs...)
}

// model is a recovery policy as a cost model: how fast the job runs while
// some replicas have lost a node, and what a lost node costs.
type model struct {
	// spares: a lost node is swapped for a spare at restart, so nothing
	// runs degraded; every failure rolls back to the last checkpoint.
	spares bool
	// keepsInflight: the iteration in flight survives a lost node.
	keepsInflight bool
	// reconfigure: a lost node, and its return, cost a reconfiguration.
	reconfigure bool
	// speed is the throughput relative to healthy with lost replicas hit.
	speed func(lost int) (float64, error)
}

// newModel returns the cost model of policy for job.
func newModel(policy string, j Job) (model, error) {
	switch policy {
	case CheckpointRestart:
		// Young 1974, Daly 2006; the Llama 3 report's practice: restart on
		// spares from the last checkpoint.
		return model{spares: true, speed: func(int) (float64, error) { return 1, nil }}, nil
	case Elastic:
		// Elastic data parallelism (as TorchElastic and Varuna's job
		// morphing do): drop the replicas that lost a node; the others go
		// on, so throughput is (dp − lost)/dp until the node returns.
		if j.Replicas < 2 {
			return model{}, fmt.Errorf("policy %s drops a data-parallel replica; the job has dp = %d, it needs at least 2", policy, j.Replicas)
		}
		return model{reconfigure: true, speed: func(lost int) (float64, error) {
			return float64(max(0, j.Replicas-lost)) / float64(j.Replicas), nil
		}}, nil
	case Replan, ResiHP:
		// Oobleck (Jang et al., SOSP'23) and ResiHP (2026): pay a re-plan,
		// then run the best layout on the surviving GPUs, whose throughput
		// the training simulator measures.
		if j.Replan == nil {
			return model{}, fmt.Errorf("policy %s needs the training simulator to re-plan", policy)
		}
		cache := map[int]float64{0: 1}
		return model{reconfigure: true, speed: func(lost int) (float64, error) {
			if v, ok := cache[lost]; ok {
				return v, nil
			}
			v, err := j.Replan(lost)
			cache[lost] = v
			return v, err
		}}, nil
	case Redundant:
		return redundantModel(j)
	case Reroute:
		return rerouteModel(j)
	}
	return model{}, fmt.Errorf("unknown policy %q; known: %v", policy, Policies)
}

// redundantModel is Bamboo (Thorpe et al., NSDI'23): every stage also runs
// its successor's forward pass in the pipeline bubbles, so when a node
// fails its predecessor takes over at once with no lost work. The price is
// steady: the redundant forward, ForwardShare × Compute, costs iteration
// time where it does not fit in the bubble. After a failover one stage of
// the replica does two stages' work, and a pipeline's makespan with one
// stage of twice the time is Σtᵢ + (m−1)·max tᵢ = (2m + p − 1)·t instead
// of (m + p − 1)·t; the synchronous replicas all wait for it until the
// node returns.
func redundantModel(j Job) (model, error) {
	if j.Stages < 2 {
		return model{}, fmt.Errorf("policy %s runs a neighbour stage's work in the pipeline bubbles; the job has pp = %d, it needs at least 2", Redundant, j.Stages)
	}
	overhead := max(0, j.ForwardShare*j.Compute.Seconds()-j.Bubble.Seconds())
	steady := j.Iteration.Seconds() / (j.Iteration.Seconds() + overhead)
	m, p := float64(j.Microbatches), float64(j.Stages)
	failover := (m + p - 1) / (2*m + p - 1)
	return model{keepsInflight: true, speed: func(lost int) (float64, error) {
		if lost > 0 {
			return steady * failover, nil
		}
		return steady, nil
	}}, nil
}

// rerouteModel is ReCycle (Gandhi et al., SOSP'24), after SWARM
// (Ryabinin et al., ICML'23): the microbatches of a stage whose node
// failed go to the same stage of the other replicas, which fit the extra
// work in their pipeline bubbles. With lost replicas each missing a stage
// (the worst case: the same stage), each of the dp − lost peers takes
// m·lost/(dp − lost) extra microbatches, Compute·lost/(dp − lost) of extra
// time; what the bubble cannot hold stretches the iteration. The global
// batch is kept.
func rerouteModel(j Job) (model, error) {
	if j.Replicas < 2 {
		return model{}, fmt.Errorf("policy %s sends microbatches to other data-parallel replicas; the job has dp = %d, it needs at least 2", Reroute, j.Replicas)
	}
	return model{reconfigure: true, speed: func(lost int) (float64, error) {
		if lost >= j.Replicas {
			return 0, nil
		}
		extra := j.Compute.Seconds() * float64(lost) / float64(j.Replicas-lost)
		stretch := max(0, extra-j.Bubble.Seconds())
		return j.Iteration.Seconds() / (j.Iteration.Seconds() + stretch), nil
	}}, nil
}
