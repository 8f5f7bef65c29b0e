package training

import (
	"paraplay/sim/scenario"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Per-layer sharding (parallel.zero_layers: k), after OSDP (Youhe Jiang,
// Fangcheng Fu, Xupeng Miao, Xiaonan Nie and Bin Cui, "OSDP: Optimal
// Sharded Data Parallel for Distributed Deep Learning", IJCAI 2023).
// ZeRO-3 pays for its memory saving with traffic: each sharded parameter
// is gathered before every forward and backward, 2m−1 gathers an
// iteration, where a parameter kept whole is gathered once, after the
// optimizer step, as ZeRO-2 does it. OSDP decides per operator whether to
// shard its parameters, spending the memory left over on whole
// parameters and sharding only what must be sharded to fit. PyTorch FSDP
// offers the same choice per wrapped module (FULL_SHARD or
// SHARD_GRAD_OP; Zhao et al. 2023).
//
// Here the unit is a transformer layer: with parallel.zero: 3, ZeRO-3
// shards the embedding, the output head and the first k layers; the other
// L − k layers keep their parameters whole while their gradients and
// optimizer states stay sharded (ZeRO-2). A GPU's model states are the sum
// over its layers of each layer's own accounting (Rajbhandari et al.
// 2020, §5; Ψ_sh the parameters sharded, Ψ_wh those kept whole on a
// pipeline device, N_d the ZeRO group):
//
//	16Ψ_sh/N_d + 2Ψ_wh + 14Ψ_wh/N_d
//
// Every gradient is reduce-scattered (both stages do it); the gathers
// before each pass move the sharded layers' bytes only
// (dataparallel.go's zero3Gather), and the whole layers' parameters are
// all-gathered once after the optimizer step (gatherAfterStep). k = L is
// ZeRO-3, byte for byte; the ZeRO-2 end, k = 0, is parallel.zero: 2.
//
// Not modelled: OSDP's operator splitting (cutting one large operator's
// gathered weight into slices to lower the peak; the gather buffer here
// is FSDP's two units, memory.go) and a choice per operator finer than a
// layer, or the embedding and head kept whole. The planner (package plan,
// Config.ZeROLayers) searches k.

// checkZeROLayers refuses a zero_layers outside 0..model.layers, or set
// without ZeRO-3, on a synthetic model, or with the ways of summing
// gradients it does not combine with (sdp, cyclic).
func checkZeROLayers(s *scenario.Scenario, bad scenario.Reporter) {
	p := s.Parallel
	k := p.ZeROLayers
	if k == 0 {
		return
	}
	layers := 0
	if m, err := s.Model.Resolve(); err == nil && !s.Model.IsSynthetic() {
		layers = m.Layers
	}
	// One message for every rule: each bad call costs the browser build
	// its formatting code.
	if k < 0 || k > layers || p.ZeRO != 3 || p.Cyclic || SDPOf(s).Fraction != 0 {
		bad("parallel.zero_layers", "is %d with parallel.zero %d; allowed 0 (shard every layer) or 1..%d (model.layers of a real model: ZeRO-3 on the first k, ZeRO-2 on the rest), which needs parallel.zero: 3 and neither parallel.cyclic nor sdp", k, p.ZeRO, layers)
	}
}

// replicatedParams is the parameters one GPU of model stage k holds in
// layers whose parameters parallel.zero_layers keeps whole: the stage's
// layers from index zero_layers on (none without zero_layers).
func (c *costs) replicatedParams(k int) float64 {
	zl := c.par.ZeROLayers
	if zl <= 0 || c.par.ZeRO != 3 || !c.real {
		return 0
	}
	st := c.stage(k)
	from := max(st.From, zl)
	n := st.From + st.Layers - from
	if n <= 0 {
		return 0
	}
	return workload.StageParamsOf(c.model, workload.Stage{From: from, Layers: n}, c.par.TP, c.par.EP, c.par.Plan().ExpertTP())
}

// deviceReplicated is replicatedParams over a device's stages ks.
func (c *costs) deviceReplicated(ks []int) float64 {
	var psi float64
	for _, k := range ks {
		psi += c.replicatedParams(k)
	}
	return psi
}

// shardedBytes is the bf16 bytes of model stage k's parameters that ZeRO-3
// shards, the bytes its gathers before each pass move: gradBytes less the
// whole layers'.
func (c *costs) shardedBytes(k int) units.Bytes {
	if !c.real {
		return 0
	}
	return c.gradBytes(k) - units.Bytes(2*c.replicatedParams(k))
}
