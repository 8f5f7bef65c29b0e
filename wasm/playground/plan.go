package playground

import (
	"paraplay/sim/plan"
	"paraplay/sim/scenario"
)

// PlanConfig is the planner's question for the scenario on show
// (plan.ForScenario): the same model, cluster and training settings, and
// its global batch (dp × microbatches × micro-batch size). Only a training
// scenario of a real model on catalog GPUs has one.
func PlanConfig(s scenario.Scenario) (plan.Config, error) { return plan.ForScenario(s) }

// PlanQuery is the address of a plan for the animation: its scenario with
// the fidelity left to the simulator (detailed up to 512 GPUs).
func PlanQuery(p *plan.Plan) string {
	s := p.Scenario
	s.Fidelity = "auto"
	return s.Query().Encode()
}
