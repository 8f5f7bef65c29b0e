package opgraph

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
)

// Name is the strategy key's value of operator-graph workloads: a ResNet
// or a sequence-to-sequence LSTM, given as operators with shapes, trained
// on one server's GPUs with data, model (GPipe or DAPPLE) or hybrid
// parallelism.
const Name = "opgraph"

// section is the key of the scenario's graph section.
const section = "graph"

// The graph.model values.
const (
	ModelResNet50 = "resnet50"
	ModelSeq2Seq  = "seq2seq-lstm"
)

// Auto is the graph.stage_replicas value that asks DAPPLE's planner
// (PlanStages) for the stages and their GPUs.
const Auto = "auto"

// Limits of the graph section.
const (
	MaxBatch = 65536
	MaxImage = 1024
	MaxWords = 200
)

// Settings is the graph section of a scenario.
type Settings struct {
	// Model is the workload: resnet50 (He et al. 2016, torchvision's v1.5)
	// or seq2seq-lstm (Sutskever et al. 2014).
	Model string
	// Split is how the GPUs share it: data, model or hybrid.
	Split string
	// Batch is the samples (images, sentence pairs) of one iteration,
	// 1..MaxBatch.
	Batch int
	// Microbatches is a model split's microbatches, a divisor of Batch.
	Microbatches int
	// StageReplicas is a model split's GPUs per stage, e.g. "1,1,1,5"
	// (DAPPLE), summing to the GPUs; "auto": the planner's choice; empty:
	// one stage a GPU (GPipe).
	StageReplicas string
	// Image is ResNet-50's image side in pixels, a multiple of 32 up to
	// MaxImage.
	Image int
	// Words is the seq2seq LSTM's source and target length, 1..MaxWords.
	Words int
}

// DefaultSettings is the graph section of a default scenario: ResNet-50
// at 224×224, 256 images an iteration, data parallel.
func DefaultSettings() Settings {
	return Settings{Model: ModelResNet50, Split: Data, Batch: 256, Microbatches: 8, Image: 224, Words: 30}
}

// SettingsOf is s's graph section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

// Edit changes s's graph section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }

// rows are the graph section's rows of the field table, in order.
var rows = []scenario.Row{
	{Key: "model", Param: "graph_model", Help: "resnet50 or seq2seq-lstm", Field: "Model", Trim: true},
	{Key: "split", Param: "graph_split", Help: "data, model or hybrid", Field: "Split", Trim: true},
	{Key: "batch", Param: "graph_batch", Field: "Batch"},
	{Key: "microbatches", Param: "graph_mb", Field: "Microbatches"},
	{Key: "stage_replicas", Param: "stage_replicas", Help: "GPUs per stage, e.g. 1,1,1,5, or auto", Field: "StageReplicas", Trim: true},
	{Key: "image", Param: "image", Field: "Image"},
	{Key: "words", Param: "words", Field: "Words"},
}

// Strategy is operator-graph training as a strategy of the scenario.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the graph section; the cluster section gives the GPUs
// (one server), compute and collective are the graph's own.
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{Sections: []scenario.Section{{Name: section, Default: DefaultSettings(), Rows: rows}},
		Claims: []string{section}, MinGPUs: 1, MaxGPUs: 8,
		Ignores: []string{"compute", "collective"}}
}

// graphOf builds the graph the section names.
func graphOf(y Settings) (Graph, error) {
	if y.Model == ModelSeq2Seq {
		return Seq2SeqLSTM(y.Words, y.Words)
	}
	return ResNet50(y.Image)
}

// FromScenario is the graph and run of a scenario the section describes.
func FromScenario(s *scenario.Scenario) (Graph, Run, error) {
	y := SettingsOf(s)
	g, err := graphOf(y)
	r := Run{GPU: s.Cluster.GPU, GPUs: s.NumGPUs(), Batch: y.Batch, Split: y.Split, Microbatches: y.Microbatches}
	if err != nil {
		return g, r, err
	}
	if y.StageReplicas != "" && y.StageReplicas != Auto {
		if r.StageReplicas, err = scenario.ParseLayerCounts(y.StageReplicas); err != nil {
			return g, r, err
		}
	}
	return g, r, nil
}

// Check checks the graph section and the one-server cluster it runs on,
// each problem under its key.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	y := SettingsOf(s)
	c := s.Cluster
	switch {
	case c.GPU == "":
		bad("cluster.gpu", "is empty; strategy %s prices the graph on a GPU preset, e.g. h100-sxm", Name)
	case c.Nodes > 1 || c.Topology != "":
		bad("cluster.nodes", "is %d; strategy %s runs on one server (1)", c.Nodes, Name)
	case c.Network != "" && c.Network != "ideal" && c.Network != "rail-optimized":
		bad("cluster.network", "is %q; strategy %s runs on one server: rail-optimized (NVLink) or ideal", c.Network, Name)
	}
	if y.Model != ModelResNet50 && y.Model != ModelSeq2Seq {
		bad(section+".model", "is %q; allowed %s, %s", y.Model, ModelResNet50, ModelSeq2Seq)
	}
	if y.Split != Data && y.Split != Model && y.Split != Hybrid {
		bad(section+".split", "is %q; allowed %s, %s, %s", y.Split, Data, Model, Hybrid)
	}
	if y.Batch < 1 || y.Batch > MaxBatch {
		bad(section+".batch", "is %d; allowed 1..%d", y.Batch, MaxBatch)
	}
	if y.Image < 32 || y.Image > MaxImage || y.Image%32 != 0 {
		bad(section+".image", "is %d; allowed a multiple of 32 from 32 to %d", y.Image, MaxImage)
	}
	if y.Words < 1 || y.Words > MaxWords {
		bad(section+".words", "is %d; allowed 1..%d", y.Words, MaxWords)
	}
	if s.Iterations > 1 {
		bad("iterations", "is %d; strategy %s simulates one iteration (1)", s.Iterations, Name)
	}
	if y.Split != Model && y.StageReplicas != "" {
		bad(section+".stage_replicas", "is %q; only a model split has stages (graph.split: model)", y.StageReplicas)
	}
	checkRun(s, y, bad)
}

// checkRun reports what Run.check refuses, under the key it concerns.
func checkRun(s *scenario.Scenario, y Settings, bad scenario.Reporter) {
	if y.Batch < 1 || y.Batch > MaxBatch || y.Image < 32 || y.Image > MaxImage || y.Words < 1 || y.Words > MaxWords || s.Cluster.GPU == "" {
		return // reported above
	}
	g, r, err := FromScenario(s)
	if err != nil {
		bad(section+".stage_replicas", "%v", err)
		return
	}
	if r.GPUs < 1 || r.GPUs > 8 {
		return // the GPU range is checked with the shared keys
	}
	if y.Split == Model && y.Microbatches > y.Batch {
		bad(section+".microbatches", "is %d; allowed a divisor of graph.batch %d", y.Microbatches, y.Batch)
		return
	}
	if _, err := r.check(g); err != nil {
		msg := strings.TrimPrefix(err.Error(), "opgraph: ")
		key := section + ".split"
		switch {
		case strings.HasPrefix(msg, "microbatches"):
			key = section + ".microbatches"
		case strings.HasPrefix(msg, "batch"):
			key = section + ".batch"
		case strings.HasPrefix(msg, "stage_replicas") || strings.Contains(msg, "places to cut"):
			key = section + ".stage_replicas"
		case strings.HasPrefix(msg, "gpu:"):
			key = "cluster.gpu"
		}
		bad(key, "%s", msg)
	}
}

// Title is e.g. "ResNet-50, data parallel on 8 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	y := SettingsOf(s)
	name := "ResNet-50"
	if y.Model == ModelSeq2Seq {
		name = "Seq2seq LSTM"
	}
	how := map[string]string{Data: "data parallel", Model: "GPipe", Hybrid: "hybrid model/data parallel"}[y.Split]
	if y.Split == Model && y.StageReplicas != "" {
		how = "DAPPLE stages " + y.StageReplicas
	}
	return fmt.Sprintf("%s, %s on %s", name, how, scenario.GPUCount(s.NumGPUs()))
}

// Describe is e.g. "resnet50 at 224², batch 256, split data over 8
// h100-sxm".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := SettingsOf(s)
	what := fmt.Sprintf("%s at %d²", y.Model, y.Image)
	if y.Model == ModelSeq2Seq {
		what = fmt.Sprintf("%s, %d words a side", y.Model, y.Words)
	}
	d := fmt.Sprintf("%s, batch %d, split %s over %d %s", what, y.Batch, y.Split, s.NumGPUs(), s.Cluster.GPU)
	if y.Split == Model {
		d += fmt.Sprintf(", %d microbatches", y.Microbatches)
	}
	return d
}
