//go:build !js

package training

import (
	"paraplay/sim/collective"
	"paraplay/sim/parallel"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/workload"
)

// AxisTraffic is the bytes chip 0 receives a step along each torus axis
// (x, y, z) and over the data-centre network (DCN).
type AxisTraffic struct {
	// ICI is the bytes along x, y and z.
	ICI [3]float64
	// DCN is the bytes over the data-centre network between slices.
	DCN float64
}

// MeshTraffic is chip 0's traffic a step by the kind of parallelism (the
// mesh axis) that sends it.
type MeshTraffic struct {
	// Data is the data-parallel and ZeRO/FSDP collectives' (TorusTraffic).
	Data AxisTraffic
	// Model is the tensor-parallel all-reduces' (the model axis).
	Model AxisTraffic
	// Seq is ring attention's keys and values (the seq axis).
	Seq AxisTraffic
}

// TorusMeshTraffic is TorusTraffic with the tensor- and
// sequence-parallel traffic beside it, counted as the cost model prices
// them (commCosts, stageCosts, tpCollectives), at the model's sequence
// length, for every microbatch chip 0 runs:
//
//   - model: each tensor-parallel all-reduce (or reduce-scatter and
//     all-gather with sequence parallelism, the same bytes) of a layer's
//     activations, b·(s/cp)·h 16-bit elements, two a dense layer and pass
//     (Megatron; an MoE layer's attention one and its shared experts'
//     one), in the forward, the backward and a fully recomputed forward,
//     over the model group's torus axes as collective.TorusAxisBytes
//     splits the torus all-reduce the run prices it as;
//   - seq: ring attention's (Liu et al. 2023) cp−1 blocks of a layer's
//     keys and values, 2·b·(s/cp)·h·(kv heads·head dim/h)/tp elements
//     each, in the forward, twice that in the backward (the blocks and
//     their gradients) and again in a recomputed forward. Every chip
//     receives every other's block, an all-gather's traffic, so the
//     blocks are split over the seq group's axes as the torus all-gather
//     splits them (exactly the ring's on a seq group along one torus axis).
//
// A group that is no box of one slice runs a ring over chip ids, which is
// not split by axis and not counted; nor are an MoE layer's expert
// tensor-parallel gathers. With pipeline stages (off a mesh) only the
// data-parallel traffic is given. ok is false when there is none.
func TorusMeshTraffic(s scenario.Scenario, tl *timeline.Timeline) (MeshTraffic, bool) {
	var mt MeshTraffic
	var ok bool
	mt.Data.ICI, mt.Data.DCN, ok = TorusTraffic(s, tl)
	t, on := meshTorus(s)
	m, err := s.Model.Resolve()
	p := s.Parallel
	if !on || err != nil || s.Cluster.Network == "ideal" || p.PP != 1 {
		return mt, ok
	}
	plan := p.Plan()
	act := float64(p.MicroBatchSize) * float64(m.SeqLen) / float64(p.CP) * float64(m.Hidden) * s.Compression.Activations // costs.boundaryElements
	passes := 2.0                                                                                                        // forward and backward
	if workload.Recompute(p.Recompute) == workload.RecomputeFull {
		passes = 3
	}
	mb := float64(p.Microbatches)
	if g, _, box := torusBox(&t, plan.Group(0, parallel.TP)); box {
		st := workload.Stage{Layers: m.Layers, First: true, Last: true}
		n := float64((&costs{model: m}).tpCollectives(st, 1, 0)) // all-reduces a pass (unit times)
		mt.Model.add(axisShare(collective.OpAllReduce, g), act*bytesPerElement*mb*passes*n)
		ok = true
	}
	if g, _, box := torusBox(&t, plan.Group(0, parallel.CP)); box {
		kv := act * float64(m.KVHeadCount()*m.HeadDim()) / float64(m.Hidden) / float64(p.TP)
		block := 2 * kv * bytesPerElement // keys and values
		mt.Seq.add(axisShare(collective.OpAllGather, g), float64(p.CP)*block*mb*float64(m.Layers)*(passes+1))
		ok = true
	}
	return mt, ok
}

// axisShare is collective.TorusAxisBytes per byte of the buffer (it is
// linear in the buffer; a large one keeps every block whole).
func axisShare(op collective.Op, g collective.Grid) [3]float64 {
	const s = 1 << 40
	b := collective.TorusAxisBytes(op, g, s)
	for a := range b {
		b[a] /= s
	}
	return b
}

// add adds times the bytes b along each axis.
func (a *AxisTraffic) add(b [3]float64, times float64) {
	for i := range a.ICI {
		a.ICI[i] += b[i] * times
	}
}
