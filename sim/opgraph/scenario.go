package opgraph

import (
	"fmt"
	"strconv"
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
	ModelUNet3D   = "unet3d"
	// The models of the searches (search.go, host only): VGG-16 for
	// FlexFlow's, GoogLeNet's module 3a for DLPlacer's.
	ModelVGG16     = "vgg16"
	ModelInception = "inception3a"
	SearchFlexFlow = "flexflow"
	SearchDLPlacer = "dlplacer"
	MaxSearchSteps = 100000
	defaultSteps   = 3000
)

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
	// (DAPPLE), summing to the GPUs; empty: one stage a GPU (GPipe).
	StageReplicas string
	// Image is ResNet-50's image side in pixels, a multiple of 32 up to
	// MaxImage.
	Image int
	// Words is the seq2seq LSTM's source and target length, 1..MaxWords.
	Words int
	// Volume, Channels and Levels are the 3-D U-Net's input side in voxels
	// (a multiple of 2^(Levels−1) up to MaxVolume), first width
	// (1..MaxChannels) and levels (2..MaxLevels), unet3d.go.
	Volume, Channels, Levels int
	// Search is a search the run plays the best result of (host only):
	// flexflow (FlexFlow's MCMC over each operator's split, graph.split
	// data) or dlplacer (DLPlacer's placement of graph.model inception3a's
	// branches on the GPUs); empty: none.
	Search string
	// SearchSteps is FlexFlow's MCMC steps, 1..MaxSearchSteps; the walk
	// is seeded by the scenario's seed.
	SearchSteps int
}

// DefaultSettings is the graph section of a default scenario: ResNet-50
// at 224×224, 256 images an iteration, data parallel.
func DefaultSettings() Settings {
	return Settings{Model: ModelResNet50, Split: Data, Batch: 256, Microbatches: 8, Image: 224, Words: 30, Volume: 128, Channels: 32, Levels: 4, SearchSteps: defaultSteps}
}

// SettingsOf is s's graph section.
func SettingsOf(s *scenario.Scenario) Settings { return scenario.Get[Settings](s, section) }

// Edit changes s's graph section in place through f.
func Edit(s *scenario.Scenario, f func(*Settings)) { scenario.Edit(s, section, f) }

// rows are the graph section's rows of the field table, in order.
var rows = []scenario.Row{
	{Key: "model", Param: "graph_model", Help: "resnet50, seq2seq-lstm or unet3d", Field: "Model", Trim: true},
	{Key: "split", Param: "graph_split", Help: "data, model or hybrid", Field: "Split", Trim: true},
	{Key: "batch", Param: "graph_batch", Field: "Batch"},
	{Key: "microbatches", Param: "graph_mb", Field: "Microbatches"},
	{Key: "stage_replicas", Param: "stage_replicas", Help: "GPUs per stage, e.g. 1,1,1,5", Field: "StageReplicas", Trim: true},
	{Key: "image", Param: "image", Field: "Image"},
	{Key: "words", Param: "words", Field: "Words"},
	{Key: "volume", Param: "unet_volume", Field: "Volume"},
	{Key: "channels", Param: "unet_channels", Field: "Channels"},
	{Key: "levels", Param: "unet_levels", Field: "Levels"},
	{Key: "search", Param: "graph_search", Help: "flexflow or dlplacer (host only)", Field: "Search", Trim: true},
	{Key: "search_steps", Param: "search_steps", Field: "SearchSteps"},
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

// FromScenario is the graph and run of a scenario the section describes;
// an error names the key at fault ("graph.image: …").
func FromScenario(s *scenario.Scenario) (Graph, Run, error) {
	y := SettingsOf(s)
	r := Run{GPU: s.Cluster.GPU, GPUs: s.NumGPUs(), Batch: y.Batch, Split: y.Split, Microbatches: y.Microbatches,
		Search: y.Search, Steps: y.SearchSteps, Seed: s.Seed}
	var g Graph
	var err error
	switch y.Model {
	case ModelResNet50:
		g, err = ResNet50(y.Image)
	case ModelSeq2Seq:
		g, err = Seq2SeqLSTM(y.Words, y.Words)
	case ModelUNet3D:
		g, err = unetScenario(y)
	case ModelVGG16, ModelInception:
		g, err = searchModel(y)
	default:
		err = fmt.Errorf("graph.model: is %q; allowed resnet50, seq2seq-lstm, unet3d, vgg16, inception3a", y.Model)
	}
	if err == nil {
		err = checkSearch(y)
	}
	if err == nil && y.StageReplicas != "" {
		r.StageReplicas, err = scenario.ParseLayerCounts(y.StageReplicas)
		if err != nil || y.Split != Model {
			err = fmt.Errorf("graph.stage_replicas: is %q; allowed GPUs per stage, e.g. 1,1,1,5, with graph.split model", y.StageReplicas)
		}
	}
	return g, r, err
}

// Check checks the graph section and the one server it runs on, naming
// the key of the first problem.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	if err := check(s); err != nil {
		key, msg, _ := strings.Cut(err.Error(), ": ")
		bad(key, "%s", msg)
	}
}

// check is Check's problem, as "key: is …; allowed …".
func check(s *scenario.Scenario) error {
	c := s.Cluster
	key, is, allowed := "", any(nil), ""
	switch {
	case c.GPU == "":
		key, is, allowed = "cluster.gpu", `""`, "a GPU preset, e.g. h100-sxm, which prices the graph"
	case c.Nodes > 1 || c.Topology != "":
		key, is, allowed = "cluster.nodes", c.Nodes, "1 (strategy opgraph runs on one server)"
	case c.Network != "" && c.Network != "ideal" && c.Network != "rail-optimized":
		key, is, allowed = "cluster.network", c.Network, "rail-optimized (the server's own links) or ideal"
	case s.Iterations > 1:
		key, is, allowed = "iterations", s.Iterations, "1 (strategy opgraph simulates one iteration)"
	default:
		g, r, err := FromScenario(s)
		if err == nil {
			_, err = r.check(g)
		}
		return err
	}
	return fmt.Errorf("%s: is %v; allowed %s", key, is, allowed)
}

// Title is e.g. "resnet50, split data, on 8 GPUs".
func (Strategy) Title(s *scenario.Scenario) string {
	y := SettingsOf(s)
	return y.Model + ", split " + y.Split + ", on " + scenario.GPUCount(s.NumGPUs())
}

// Describe is e.g. "resnet50, batch 256, split data, on h100-sxm".
func (Strategy) Describe(s *scenario.Scenario) string {
	y := SettingsOf(s)
	split := y.Split
	if y.StageReplicas != "" {
		split += " " + y.StageReplicas
	}
	return y.Model + ", batch " + strconv.Itoa(y.Batch) + ", split " + split + ", on " + s.Cluster.GPU
}
