//go:build !js

package training

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// osdpMetrics is per-layer sharding's part of a caption, when the
// scenario sets parallel.zero_layers on a dense model split by data
// parallelism alone: GPU 0's model states beside the sum over layers
// (osdp.go): Ψ_wh = (L − k) layers' parameters kept whole (ZeRO-2),
// Ψ_sh = Ψ − Ψ_wh sharded (ZeRO-3), over the ZeRO group N_d.
func osdpMetrics(s scenario.Scenario, tl *timeline.Timeline) []strategy.Part {
	p := s.Parallel
	mdl, err := s.Model.Resolve()
	if p.ZeROLayers == 0 || p.ZeRO != 3 || err != nil || mdl.IsMoE() || len(tl.Memory) == 0 || p.TP*p.PP*p.CP*p.EP != 1 {
		return nil
	}
	pc := workload.Params(mdl)
	wh := float64(mdl.Layers-p.ZeROLayers) * float64(pc.PerLayer)
	nd := float64(p.ShardGroup())
	want := 16*(float64(pc.Total())-wh)/nd + 2*wh + 14*wh/nd
	const formula = "16Ψ_sh/N_d + 2Ψ_wh + 14Ψ_wh/N_d"
	mem := tl.Memory[0]
	return []strategy.Part{strategy.Compare(strategy.Check{Name: "per-layer sharding model states", Formula: formula,
		Source: "Rajbhandari et al. 2020 per layer; Jiang et al. 2023 (OSDP)", Tolerance: 1e-6},
		fmt.Sprintf("model states per GPU {}; ZeRO-3 on %d of %d layers and the embedding and head, ZeRO-2 on the other %d: %s = {}",
			p.ZeROLayers, mdl.Layers, mdl.Layers-p.ZeROLayers, formula),
		float64(mem.Parameters+mem.Gradients+mem.OptimizerStates), want, strategy.GiB)}
}
