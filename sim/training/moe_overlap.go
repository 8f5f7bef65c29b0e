package training

import (
	"paraplay/sim/pipeline"
	"paraplay/sim/units"
)

// The all-to-alls of DualPipe's overlapped pairs. DualPipe (DeepSeek-AI
// 2024, DeepSeek-V3 Technical Report §3.2.1) runs the forward of one
// microbatch and the backward of another as one pair, each cut into
// attention, dispatch, MLP and combine, and interleaves the pieces so that
// one half's all-to-alls cross the fabric while the other half computes.
// The executor runs a pair's ops one after the other; what it keeps of the
// overlap is the all-to-all time the pair hides: with two resources (the
// SMs and the fabric) each half's all-to-alls A can hide under the other
// half's compute C', so the half exposes max(0, A − C') of them. The pair
// then exposes at least max(0, A_F + A_B − C_F − C_B), the bound of two
// overlapped streams, and exactly that when neither half's all-to-alls
// outlast the other's compute alone. A pair is an F followed at once on its
// device by a B of the other chunk, in DualPipeV (phases 4 and 5 of
// pipeline.DualPipeV; the F that ends phase 2 and the B that starts phase
// 3 are of one chunk and run apart, as in the reference implementation);
// the B's compute counts its W when the W follows it at once (a full
// backward).
// The SMs DeepSeek gives the communication kernels (20 of the H800's 132)
// are not taken from the compute.

// overlapPairs finds, for each device, the ops of DualPipeV's overlapped
// pairs and the other half's compute each can hide its all-to-alls under.
// It leaves hide nil for other schedules and for one GPU per group.
func (tr *iteration) overlapPairs(x *routed) {
	if tr.sch.Name == "dualpipev" && tr.par.EP > 1 {
		x.hide = tr.pairCompute()
	}
}

// pairCompute maps, for each device, each op of DualPipeV's overlapped
// pairs (an F followed at once by a B of the other chunk) to the other
// half's compute; the B's counts its W when the W follows it at once (a
// full backward).
func (tr *iteration) pairCompute() []map[pipeline.Op]units.Time {
	hide := make([]map[pipeline.Op]units.Time, len(tr.sch.Order))
	for d, order := range tr.sch.Order {
		hide[d] = map[pipeline.Op]units.Time{}
		for i := 0; i+1 < len(order); i++ {
			f, b := order[i], order[i+1]
			if f.Kind != pipeline.F || b.Kind != pipeline.B || f.Chunk == b.Chunk {
				continue
			}
			cf, _ := tr.op(f, tr.stageOfDev[d][f.Chunk], tr.sch.SplitBackward)
			cb, _ := tr.op(b, tr.stageOfDev[d][b.Chunk], tr.sch.SplitBackward)
			if i+2 < len(order) {
				if w := order[i+2]; w.Kind == pipeline.W && w.Microbatch == b.Microbatch && w.Chunk == b.Chunk {
					cw, _ := tr.op(w, tr.stageOfDev[d][w.Chunk], true)
					cb += cw
				}
			}
			hide[d][f], hide[d][b] = cb, cf
		}
	}
	return hide
}

// exposedA2A is the all-to-all time op o of model stage k on device d
// leaves on its GPUs: all of the stage's all-to-alls of its pass, less
// what the other half of its overlapped pair computes meanwhile.
func (x *routed) exposedA2A(d, k int, o pipeline.Op) units.Time {
	if o.Kind == pipeline.W {
		return 0
	}
	a := x.a2a[min(int(o.Kind), 1)][k]
	if x.hide != nil {
		a = max(0, a-x.hide[d][o])
	}
	return a
}
