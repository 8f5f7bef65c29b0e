package training

import (
	"paraplay/sim/pipeline"
	"paraplay/sim/taskgraph"
)

// braid prices parallel.schedule: stp, Synergistic Tensor and Pipeline
// Parallelism (Qi et al. 2025, arXiv 2510.27257): on the V layout a
// forward of one microbatch and a backward of another are cut into
// units and braided, so that each half's tensor-parallel all-reduces run
// while the other half computes. The order is DualPipeV's, whose
// overlapped pairs are the braided ones (pairCompute). With two
// resources, the SMs and the links, a braided unit costs
// max(compute, all-reduce): the forward half exposes max(0, AR_F − C_B)
// of its all-reduces and the backward half max(0, AR_B − C_F), so the
// pair takes max(C_F, AR_B) + max(C_B, AR_F) instead of
// C_F + AR_F + C_B + AR_B, and gains min(C_F, AR_B) + min(C_B, AR_F), at
// most the pair's exposed all-reduce time. The op's blocking
// communication (opParts) is what it exposes; the executor then runs the
// pair's ops one after the other. Ops outside a pair (the warm-up and
// drain) keep their all-reduces exposed. The communication kernels' SMs
// are not taken from the compute.
func (tr *iteration) braid(op *taskgraph.Group, d int, o pipeline.Op) {
	if tr.sch.Name != "stp" || op.Comm == 0 {
		return
	}
	if tr.braids == nil {
		tr.braids = tr.pairCompute()
	}
	op.Comm = max(0, op.Comm-tr.braids[d][o])
}
