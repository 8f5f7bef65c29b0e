package training

import (
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// record fills in the timeline's memory and training metrics.
func (tr *iteration) record(tl *timeline.Timeline) {
	p := tr.par
	batch := p.DP * p.Microbatches * p.MicroBatchSize
	info := &timeline.Training{Schedule: tr.sch.Name, Chunks: tr.sch.Chunks, Warnings: tr.s.Warnings()}
	if tr.real {
		r := workload.Recompute(p.Recompute)
		it := workload.IterationFLOPs(tr.model, batch, r)
		info.Tokens = float64(batch) * float64(tr.model.SeqLen)
		info.ModelFLOPs, info.HardwareFLOPs, info.PeakFLOPS = it.Model(), it.Hardware(), tr.gpu.PeakFLOPS
		if sn := tr.sdp; sn != nil { // less the layers each worker leaves out
			for _, cut := range sn.cut {
				info.ModelFLOPs -= cut * sn.flops[0] * float64(p.Microbatches)
				info.HardwareFLOPs -= cut * sn.flops[1] * float64(p.Microbatches)
			}
		}
		if tr.heterogeneous() {
			// MFU divides by PeakFLOPS × GPUs: the mean peak of a mixed cluster.
			var sum float64
			for _, h := range tr.gpuOf {
				sum += h.PeakFLOPS
			}
			info.PeakFLOPS = sum / float64(len(tr.gpuOf))
		}
		info.Cost = tr.costBasis()
	}
	if p.Cyclic {
		info.Step = tr.cyclicStep(tl)
	}
	tl.Training = info
	twin := tr.twinOf() // a mirror's activations are its twin's
	for gpu := range tr.topo.GPUs {
		act := tr.g.ActivationsOf(twin[gpu])
		m := timeline.Memory{GPU: gpu, Activations: act.Points, PeakInFlight: act.PeakInFlight}
		if tr.real {
			m.Capacity = tr.gpuOf[gpu].HBM
			ks := tr.stageOfDev[tr.plan.Coord(gpu).PP]
			m.Parameters, m.Gradients, m.OptimizerStates = tr.modelStates(ks)
			m.Buffers = tr.zero3Buffer(ks)
			m.Reserve = reserveOf(tr.gpuOf[gpu], tr.par)
			if tr.sdp != nil {
				w := tr.plan.Coord(gpu).DP
				m.Parameters, m.Gradients, m.OptimizerStates = tr.sdp.states(w)
				m.Reserve = reserveFor(tr.gpuOf[gpu], tr.sdp.communicators())
			}
		}
		m.Peak = m.Static() + units.Bytes(act.Peak+0.5)
		tl.Memory = append(tl.Memory, m)
	}
}

// modelStates is the parameters, gradients and optimizer states that a GPU
// of a pipeline device holding stages ks keeps (ZeRO's accounting over its
// chunks' shards).
func (c *costs) modelStates(ks []int) (params, grads, opt units.Bytes) {
	rep := c.deviceReplicated(ks)                                                          // layers whose parameters parallel.zero_layers keeps whole: ZeRO-2's accounting (osdp.go)
	st := workload.ModelStateBytes(c.deviceParams(ks)-rep, c.par.ZeRO, c.par.ShardGroup()) // hzp.go
	r := workload.ModelStateBytes(rep, 2, c.par.ShardGroup())
	return units.Bytes(st.Parameters + r.Parameters), units.Bytes(st.Gradients + r.Gradients), units.Bytes(st.OptimizerStates + r.OptimizerStates)
}

// zero3Buffer is the memory ZeRO-3 needs on a pipeline device holding
// stages ks for the parameters it gathers: as PyTorch FSDP does it (Zhao
// et al. 2023, §3.2), one wrapped unit — a transformer layer, or the
// embedding or the output head — is gathered at a time in bf16 while the
// next is prefetched, so two of the device's largest units at 2 bytes a
// parameter. (The timing model gathers a chunk's units in one collective,
// which moves the same bytes; holding a whole chunk would be far more
// memory than FSDP needs.) Without data parallelism nothing is gathered.
func (c *costs) zero3Buffer(ks []int) units.Bytes {
	p := c.par
	if p.ZeRO < 3 || p.ShardGroup() == 1 || !c.real {
		return 0
	}
	var unit float64
	last := len(c.layers) - 1
	for _, k := range ks {
		if c.layers[k] > 0 && c.replicatedParams(k) < c.stageParams(k) { // a sharded layer (osdp.go)
			unit = max(unit, workload.StageParams(c.model, 1, false, false, p.TP, p.EP))
		}
		if k == 0 {
			unit = max(unit, workload.StageParams(c.model, 0, true, false, p.TP, p.EP))
		}
		if k == last {
			unit = max(unit, workload.StageParams(c.model, 0, false, true, p.TP, p.EP))
		}
	}
	return units.Bytes(2*2*unit + 0.5)
}
