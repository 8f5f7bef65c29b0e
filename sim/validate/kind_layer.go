package validate

import (
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/run"
	"paraplay/sim/timeline"
)

// Figures a layer row can report, in milliseconds.
var layerFigures = []string{"forward_ms", "backward_ms", "combined_ms"}

// layerKind reports one transformer layer's time on one GPU for one
// microbatch, in milliseconds, as Korthikanti et al. 2022 time it in their
// Table 4: the forward pass, the backward pass (with the recomputation the
// scenario asks for) or both, each with the layer's blocking tensor- and
// context-parallel communication. The simulator prices whole runs, so the
// kind runs the scenario twice, with its layers and with half of them, and
// divides the difference of GPU 0's forward (or backward) spans, compute
// and communication, by the layers removed and the microbatches: the
// embedding, the output head and the optimizer step are the same in both
// runs and cancel. The scenario must have no pipeline (parallel.pp = 1),
// so that GPU 0 runs every layer, and at least two layers.
func layerKind() Kind {
	return Kind{
		Name:     "training-layer",
		What:     "one transformer layer's forward, backward or combined time in ms (two runs differing in their layer count)",
		Required: []string{"scenario", "figure"},
		Optional: []string{"budget"},
		Simulate: simulateLayer,
	}
}

func simulateLayer(config map[string]string) (float64, error) {
	fig := config["figure"]
	if !slices.Contains(layerFigures, fig) {
		return 0, fmt.Errorf("config.figure: %q; want one of %s", fig, strings.Join(layerFigures, ", "))
	}
	s, limits, err := parseTraining(config)
	if err != nil {
		return 0, err
	}
	m, err := s.Model.Resolve()
	if err != nil {
		return 0, fmt.Errorf("config.scenario: model: %w", err)
	}
	if s.Model.IsSynthetic() || m.Layers < 2 {
		return 0, fmt.Errorf("config.scenario: model: want a real model (a preset) with at least 2 layers")
	}
	if s.Parallel.PP > 1 {
		return 0, fmt.Errorf("config.scenario: parallel.pp = %d; a layer row needs 1, so that GPU 0 runs every layer", s.Parallel.PP)
	}
	var fb [2][2]float64 // [run][forward, backward] seconds on GPU 0
	layers := [2]int{m.Layers, m.Layers / 2}
	for i, l := range layers {
		s.Model.Layers = l
		tl, err := run.SimulateMirroredWithin(s, limits) // replica 0, GPU 0, is always simulated
		if err != nil {
			return 0, fmt.Errorf("config.scenario (with %d layers): %w", l, err)
		}
		fb[i] = passSeconds(tl, 0)
	}
	per := float64(layers[0]-layers[1]) * float64(max(s.Parallel.Microbatches, 1)) / 1e3
	f, b := (fb[0][0]-fb[1][0])/per, (fb[0][1]-fb[1][1])/per
	v := map[string]float64{"forward_ms": f, "backward_ms": b, "combined_ms": f + b}[fig]
	if !(v > 0) {
		return 0, fmt.Errorf("config.scenario: the layers took no time")
	}
	return v, nil
}

// passSeconds sums GPU gpu's compute and blocking communication spans of
// the forward pass and of the backward pass (recomputation and weight
// gradients included): communication spans carry the label of the pass
// they block ("F0", "B0").
func passSeconds(tl *timeline.Timeline, gpu int) [2]float64 {
	var fb [2]float64
	for _, sp := range tl.Spans {
		if sp.GPU != gpu {
			continue
		}
		d := (sp.End - sp.Start).Seconds()
		switch sp.Kind {
		case timeline.Forward:
			fb[0] += d
		case timeline.Backward, timeline.BackwardWeight:
			fb[1] += d
		case timeline.TPComm, timeline.CPComm, timeline.EPComm:
			if strings.HasPrefix(sp.Label, "F") {
				fb[0] += d
			} else {
				fb[1] += d
			}
		}
	}
	return fb
}
