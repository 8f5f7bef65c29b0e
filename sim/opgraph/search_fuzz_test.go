//go:build !js

package opgraph

import (
	"testing"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// FuzzSearch builds graph sections with a search from the fuzzer's bytes
// (graph.search and graph.search_steps, the model, split, batch, image,
// seed and GPUs, boundary values among them). Each is refused with an
// error naming a graph or cluster key, or it runs within its work bound
// to a valid timeline; nothing panics.
func FuzzSearch(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1})
	f.Add([]byte{2, 3, 2, 4, 2, 5, 6, 7})
	limits := budget.Limits{Who: "the fuzz target allows", Events: 1e6, Transfers: 1e5, Spans: 1e5, TraceBytes: 1e9, Memory: 1 << 30}
	f.Fuzz(func(t *testing.T, data []byte) {
		next := fuzzPicker(data)
		s := scenario.Default()
		s.Strategy = Name
		s.Seed = uint64(next(1, 0, 7, 1<<40))
		s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 1, GPUsPerNode: next(8, 1, 2, 4, 3, 9, 0), Network: []string{"", "ideal", "x"}[next(0, 1, 2)]}
		Edit(&s, func(y *Settings) {
			y.Search = []string{SearchFlexFlow, SearchDLPlacer, "", "x"}[next(0, 1, 2, 3)]
			y.Model = []string{ModelVGG16, ModelInception, ModelResNet50, ModelSeq2Seq, ModelUNet3D, "x"}[next(0, 1, 2, 3, 4, 5)]
			y.Split = []string{Data, Model, Hybrid, "x"}[next(0, 1, 2, 3)]
			y.SearchSteps, y.Batch = next(20, 1, 0, 200, MaxSearchSteps+1, -1), next(64, 8, 7, 0, 256, MaxBatch+1)
			y.Image, y.Words = next(64, 32, 224, 0, 100), next(5, 1, 0)
		})
		runFuzzed(t, s, limits)
	})
}
