package scene_test

import (
	"paraplay/sim/inference"
	"strings"
	"testing"

	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/scene"
	"paraplay/sim/units"
)

func TestInferenceGoldenSVG(t *testing.T) {
	tl := simulate(t, "inference-pp4.yaml", "")
	checkGoldenSVG(t, "inference_pp4.svg", scene.Build(tl, 40*units.Millisecond, scene.Options{}))
}

// The memory bars of a serving run stack a KV cache whose height grows
// with the tokens generated, the strip tints idle time by bubble kind,
// and the metrics box gives the serving headline.
func TestInferenceScene(t *testing.T) {
	s := scenario.Default()
	s.Strategy, s.GPUs, s.Cluster.GPU, s.Model.Preset = inference.Name, 2, "h100-sxm", "llama3-8b"
	s.Parallel.PP = 2
	inference.Edit(&s, func(in *inference.Settings) {
		in.Requests, in.Prompt, in.Output = 64, 256, 64
		in.HostTime = 100 * units.Microsecond
	})
	tl, err := run.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	f := scene.NewFrames(tl)
	kvHeight := func(at units.Time) float64 {
		for _, it := range f.Build(at, scene.Options{}).Items {
			if it.ID == "mem/1/kv" {
				return it.H
			}
		}
		t.Fatalf("no KV bar for GPU 1 at %v", at)
		return 0
	}
	first := tl.Inference.Microbatches[0].FirstToken
	a, b := kvHeight(first+(tl.End-first)/4), kvHeight(tl.End)
	if !(b > a && a > 0) {
		t.Errorf("KV bar %.2f px a quarter into decoding, %.2f px at the end; want it to grow", a, b)
	}
	dl := f.Build(tl.End/2, scene.Options{})
	found := map[string]bool{}
	for _, it := range dl.Items {
		switch {
		case strings.HasPrefix(it.ID, "strip/bubble/"):
			found["bubble"] = true
		case it.ID == "metrics/TTFT", it.ID == "metrics/TPOT", it.ID == "legend/bubble-imbalance/label", it.ID == "mem/legend/kv/label":
			found[it.ID] = true
		}
	}
	for _, want := range []string{"bubble", "metrics/TTFT", "metrics/TPOT", "legend/bubble-imbalance/label", "mem/legend/kv/label"} {
		if !found[want] {
			t.Errorf("the frame has no %s", want)
		}
	}
}
