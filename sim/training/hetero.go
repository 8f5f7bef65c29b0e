package training

import (
	"fmt"

	"paraplay/sim/hw"
	"paraplay/sim/pipeline"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// gpuTypes gives every GPU its preset (cluster.node_gpus, else
// cluster.gpu) and its compute-time multiplier against the reference
// GPU: op times are worked out for cluster.gpu, and a GPU whose peak ×
// efficiency is half as large takes twice as long.
func (tr *training) gpuTypes() error {
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
func (tr *training) rate(h hw.GPU) float64 {
	eff := tr.s.Training.Efficiency
	if eff == 0 {
		eff = h.Efficiency
	}
	return h.PeakFLOPS * eff
}

// heterogeneous reports whether some GPU is not of the reference type.
func (tr *training) heterogeneous() bool {
	for _, m := range tr.mult {
		if m != 1 {
			return true
		}
	}
	return false
}

// stageMult is, for every model stage, the compute-time multiplier of the
// slowest GPU that runs it (in any live replica): the stage waits for it.
func (tr *training) stageMult() []float64 {
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

// balance sizes the pipeline stages to the speed of their GPUs, as HAPT
// (arXiv 2509.24859, HARP in its 2026 version) does on mixed clusters: it minimises the slowest
// stage's time per microbatch, mult_k × FLOPs(layers_k), where FLOPs
// counts the stage's layers and the head on the last stage. Greedy: every
// stage starts with one layer and each further layer goes to the stage
// whose time after taking it is smallest; for costs that grow with the
// layer count this greedy reaches the smallest possible maximum (the
// classic minimax allocation of identical units).
func (tr *training) balance() {
	m, p := tr.model, tr.s.Parallel
	mult := tr.stageMult()
	r := workload.Recompute(p.Recompute)
	cost := func(k, layers int) float64 {
		f := workload.StageFLOPs(m, layers, k == 0, k == tr.stages-1, p.MicroBatchSize, p.TP, p.CP, r)
		return mult[k] * f.Hardware()
	}
	for k := range tr.layers {
		tr.layers[k] = 1
	}
	for left := m.Layers - tr.stages; left > 0; left-- {
		best, bestCost := 0, 0.0
		for k := range tr.layers {
			if c := cost(k, tr.layers[k]+1); k == 0 || c < bestCost {
				best, bestCost = k, c
			}
		}
		tr.layers[best]++
	}
}

// scaleCompute is the compute time of group op o starting at start (the
// iteration's clock): on each of its GPUs the nominal time × the GPU
// type's multiplier × a straggler draw ÷ the speed a fail-slow left it;
// the group runs in lockstep, so the slowest GPU sets the time.
func (tr *training) scaleCompute(o *taskgraph.Group, id int, start units.Time) units.Time {
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
// sequences when the batch's lengths vary: the stage's FLOPs at that
// length (attention grows with its square, Hydraulis' point), and the
// tensor-parallel traffic in proportion to the length.
func (tr *training) sequenceCost(op *taskgraph.Group, r, k int, o pipeline.Op) {
	if tr.it == nil || tr.it.lengths == nil || !tr.real {
		return
	}
	c := tr.costAt(k, tr.it.lengths[r][o.Microbatch])
	switch o.Kind {
	case pipeline.F:
		op.Compute, op.Comm = c[0], c[3]
	case pipeline.B:
		op.Compute, op.Comm = c[1], c[4]
		if !tr.sch.SplitBackward {
			op.Compute += c[2]
		}
	case pipeline.W:
		op.Compute = c[2]
	}
}

// costAt is stage k's F, B, W compute and F, B blocking communication for
// a microbatch of sequences of length seq, cached.
func (tr *training) costAt(k, seq int) [5]units.Time {
	if c, ok := tr.seqCost[[2]int{k, seq}]; ok {
		return c
	}
	if tr.seqCost == nil {
		tr.seqCost = map[[2]int][5]units.Time{}
	}
	p := tr.s.Parallel
	m := tr.model
	m.SeqLen = seq
	f := workload.StageFLOPs(m, tr.layers[k], k == 0, k == tr.stages-1, p.MicroBatchSize, p.TP, p.CP, workload.Recompute(p.Recompute))
	ratio := float64(seq) / float64(tr.model.SeqLen)
	c := [5]units.Time{
		workload.OpTime(f.Forward, tr.gpu, tr.eff),
		workload.OpTime(f.BackwardInput+f.Recompute, tr.gpu, tr.eff),
		workload.OpTime(f.BackwardWeight, tr.gpu, tr.eff),
		units.Round(tr.commTime[0][k].Seconds() * ratio),
		units.Round(tr.commTime[1][k].Seconds() * ratio),
	}
	tr.seqCost[[2]int{k, seq}] = c
	return c
}
