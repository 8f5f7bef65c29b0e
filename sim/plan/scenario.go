package plan

import (
	"errors"
	"paraplay/sim/training"

	"paraplay/sim/scenario"
)

// ForScenario is the planner's question for a training scenario: the same
// model, cluster and training settings, and the scenario's global batch
// (dp × microbatches × micro-batch size). Only a training scenario of a
// model preset on catalog GPUs has one; a cluster given only as a GPU count
// is one server. The playground's plan tab and the site's embedded planner
// both ask it, so the page and the article search the same space.
func ForScenario(s scenario.Scenario) (Config, error) {
	if s.Strategy != training.Name || s.Model.IsSynthetic() || s.Model.Preset == "" {
		return Config{}, errors.New("plan: the planner searches the plans of a training scenario with a model preset (e.g. model=llama3-8b)")
	}
	if s.Cluster.GPU == "" {
		return Config{}, errors.New("plan: the planner needs catalog GPUs (cluster.gpu, e.g. h100-sxm)")
	}
	c := s.Cluster
	if c.GPUsPerNode == 0 && c.Topology == "" {
		c.Nodes, c.GPUsPerNode = 1, s.NumGPUs()
	}
	p := s.Parallel
	cfg := Config{Model: s.Model, Cluster: c, GlobalBatch: p.DP * p.Microbatches * p.MicroBatchSize, Training: s.Training,
		Cost:       scenario.Get[training.Cost](&s, "cost"),
		ZeROLayers: p.ZeROLayers > 0} // a scenario that shards per layer has the planner search it too
	return cfg, cfg.Validate()
}
