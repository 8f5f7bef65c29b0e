package playground

import (
	"errors"

	"paraplay/sim/plan"
	"paraplay/sim/scenario"
)

// PlanConfig is the planner's question for the scenario on show: the same
// model, cluster and training settings, and its global batch (dp ×
// microbatches × micro-batch size). Only a training scenario of a real
// model on catalog GPUs has one.
func PlanConfig(s scenario.Scenario) (plan.Config, error) {
	if s.Strategy != scenario.StrategyTraining || s.Model.IsSynthetic() || s.Model.Preset == "" {
		return plan.Config{}, errors.New("plan: the plan tab searches the plans of a training scenario with a model preset (e.g. model=llama3-8b)")
	}
	if s.Cluster.GPU == "" {
		return plan.Config{}, errors.New("plan: the plan tab needs catalog GPUs (cluster.gpu, e.g. h100-sxm)")
	}
	c := s.Cluster
	if c.GPUsPerNode == 0 {
		c.Nodes, c.GPUsPerNode = 1, s.NumGPUs()
	}
	p := s.Parallel
	cfg := plan.Config{Model: s.Model, Cluster: c, GlobalBatch: p.DP * p.Microbatches * p.MicroBatchSize, Training: s.Training}
	return cfg, cfg.Validate()
}

// PlanQuery is the address of a plan for the animation: its scenario with
// the fidelity left to the simulator (detailed up to 512 GPUs).
func PlanQuery(p *plan.Plan) string {
	s := p.Scenario
	s.Fidelity = "auto"
	return s.Query().Encode()
}
