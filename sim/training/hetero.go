package training

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/pipeline"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// conditions is what makes an iteration's cluster imperfect: the state of
// a longer run (faults.go), the GPU types, the stragglers.
type conditions struct {
	it *iterState // this iteration's faults, batch and replicas; nil: one plain iteration
	// experts is a mixture of experts' routing: what each GPU of an
	// expert-parallel group computes, keeps and sends (moe.go); nil for a
	// dense model.
	experts *routed
	// mult[g] is GPU g's compute time over the reference GPU's (1 on a
	// uniform cluster): its preset's peak × efficiency against cluster.gpu's.
	mult   []float64
	gpuOf  []hw.GPU // by GPU: its preset
	jitter jitterSource
}

// alive reports whether replica r runs in this iteration.
func (c *conditions) alive(r int) bool {
	return c.it == nil || c.it.live == nil || c.it.live[r]
}

// heterogeneous reports whether some GPU is not of the reference type.
func (c *conditions) heterogeneous() bool {
	for _, m := range c.mult {
		if m != 1 {
			return true
		}
	}
	return false
}

// gpuTypes gives every GPU its preset (cluster.node_gpus, else
// cluster.gpu) and its compute-time multiplier against the reference
// GPU: op times are worked out for cluster.gpu, and a GPU whose peak ×
// efficiency is half as large takes twice as long.
func (tr *iteration) gpuTypes() error {
	n := len(tr.topo.GPUs)
	tr.mult, tr.gpuOf = make([]float64, n), make([]hw.GPU, n)
	for g := range tr.mult {
		tr.mult[g], tr.gpuOf[g] = 1, tr.gpu
	}
	if len(tr.s.Cluster.NodeGPUs) == 0 {
		return nil
	}
	ref := tr.rate(tr.gpu)
	for g, gpu := range tr.topo.GPUs {
		h, err := hw.LookupGPU(tr.s.GPUOfNode(gpu.Node))
		if err != nil {
			return fmt.Errorf("cluster.node_gpus: %w", err)
		}
		tr.gpuOf[g], tr.mult[g] = h, ref/tr.rate(h)
	}
	return nil
}

// rate is the FLOP/s a GPU of preset h reaches: its peak × the scenario's
// efficiency, or its own assumed efficiency when the scenario sets none.
// It is the bf16 peak in fp8 runs too: every preset with FP8 runs it at
// twice its bf16 rate (hw's TestDatasheetPeaks), so the ratio of two
// GPUs' speeds is the same in either precision.
func (tr *iteration) rate(h hw.GPU) float64 {
	eff := tr.s.Training.Efficiency
	if eff == 0 {
		eff = h.Efficiency
	}
	return h.PeakFLOPS * eff
}

// stageMult is, for every model stage, the compute-time multiplier of the
// slowest GPU that runs it (in any live replica): the stage waits for it.
func (tr *iteration) stageMult() []float64 {
	out := make([]float64, tr.stages)
	for k, pl := range tr.sch.Layout {
		for r := range tr.mpGroup {
			if !tr.alive(r) {
				continue
			}
			for _, g := range tr.mpGroup[r][pl.Device] {
				out[k] = max(out[k], tr.mult[g])
			}
		}
	}
	return out
}

// balance sizes the pipeline stages to the speed of their GPUs (mult[k]
// for stage k), as HAPT (arXiv 2509.24859, HARP in its 2026 version) does
// on mixed clusters: it minimises the slowest stage's time per
// microbatch, mult_k × FLOPs(layers_k), where FLOPs counts the stage's
// layers and the head on the last stage. Greedy: every stage starts with
// one layer and each further layer goes to the stage whose time after
// taking it is smallest; for costs that grow with the layer count this
// greedy reaches the smallest possible maximum (the classic minimax
// allocation of identical units). A cap > 0 bounds the layers of a stage
// (resihp's re-partition keeps each stage within its GPUs' memory).
func (c *costs) balance(mult []float64, cap int) {
	m, p := c.model, c.par
	stages := len(c.layers)
	r := workload.Recompute(p.Recompute)
	cost := func(k, layers int) float64 {
		f := workload.StageFLOPs(m, layers, k == 0, k == stages-1, p.MicroBatchSize, p.TP, p.CP, r)
		return mult[k] * f.Hardware()
	}
	for k := range c.layers {
		c.layers[k] = 1
	}
	for left := m.Layers - stages; left > 0; left-- {
		best, bestCost := -1, 0.0
		for k := range c.layers {
			if t := cost(k, c.layers[k]+1); (cap == 0 || c.layers[k] < cap) && (best < 0 || t < bestCost) {
				best, bestCost = k, t
			}
		}
		c.layers[best]++
	}
}

// scaleCompute is the compute time of group op o starting at start (the
// iteration's clock): on each of its GPUs the nominal time × the GPU
// type's multiplier × a straggler draw ÷ the speed a fail-slow left it;
// the group runs in lockstep, so the slowest GPU sets the time.
func (tr *iteration) scaleCompute(o *taskgraph.Group, id int, start units.Time) units.Time {
	var worst float64
	for _, g := range o.GPUs {
		f := float64(o.Compute) * tr.mult[g]
		if it := tr.it; it != nil && !it.healthy {
			f *= tr.jitter.factor(it.index, id, g) / it.speed(g, it.offset+start)
		}
		worst = max(worst, f)
	}
	if worst == float64(o.Compute) {
		return o.Compute
	}
	return max(1, units.Round(worst*1e-9))
}

// sequenceCost sets the compute and blocking communication of op o of
// replica r on model stage k from the length of its microbatch's
// sequences when the batch's lengths vary (costs.atLength), or from the
// buckets a balanced assignment packed into it (packedLength).
func (tr *iteration) sequenceCost(op *taskgraph.Group, r, k int, o pipeline.Op) {
	if tr.it == nil || tr.it.lengths == nil || !tr.real {
		return
	}
	var t [5]units.Time
	if tr.it.packs != nil {
		t = tr.packedLength(k, r, o.Microbatch)
	} else {
		t = tr.atLength(k, tr.it.lengths[r][o.Microbatch])
	}
	compute, comm := opParts(o.Kind, t, tr.sch.SplitBackward)
	op.Compute = compute
	if o.Kind != pipeline.W {
		op.Comm = comm
	}
}
