package scene_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/scene"
)

// TestViewGoldenSVG keeps the cluster, timeline and memory views of three
// scenarios — a 16-GPU hybrid-parallel Llama 3 8B run, a pipeline on a
// mixed H100/A100 cluster, and an all-reduce on two H100 nodes (which has
// no memory panel and says so) — as golden SVGs under testdata/views.
func TestViewGoldenSVG(t *testing.T) {
	for _, sc := range []struct {
		file string
		frac float64
	}{
		{"llama3-8b-2x8.yaml", 0.45},
		{"hetero-balanced.yaml", 0.4},
		{"allreduce-2x4-h100.yaml", 0.5},
	} {
		tl := simulate(t, sc.file, "")
		for _, v := range []scene.View{scene.ViewCluster, scene.ViewTimeline, scene.ViewMemory} {
			name := strings.TrimSuffix(sc.file, ".yaml") + "_" + string(v) + ".svg"
			var buf bytes.Buffer
			dl := scene.Build(tl, at(tl, sc.frac), scene.Options{Width: 800, Height: 450, View: v})
			if err := scene.WriteSVG(&buf, dl); err != nil {
				t.Fatalf("%s: WriteSVG: %v", name, err)
			}
			if len(dl.Items) == 0 {
				t.Errorf("%s: the view drew nothing", name)
			}
			golden.Check(t, filepath.Join("testdata", "views", name), buf.Bytes())
		}
	}
}
