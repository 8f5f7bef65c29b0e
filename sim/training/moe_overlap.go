package training

import (
	"paraplay/sim/collective"
	"paraplay/sim/pipeline"
	"paraplay/sim/timeline"
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
	if tr.sch.Name != "dualpipev" || tr.par.EP <= 1 {
		return
	}
	x.hide = make([]map[pipeline.Op]half, len(tr.sch.Order))
	for d := range x.hide {
		x.hide[d] = map[pipeline.Op]half{}
	}
	tr.eachPair(func(d int, f, b pipeline.Op, cf, cb units.Time) {
		kf, kb := tr.stageOfDev[d][f.Chunk], tr.stageOfDev[d][b.Chunk]
		x.hide[d][f] = half{under: cb, shown: min(x.a2a[1][kb], cf), bytes: x.bytes[kb]}
		x.hide[d][b] = half{under: cf, shown: min(x.a2a[0][kf], cb), bytes: x.bytes[kf]}
	})
}

// pairCompute maps, for each device, each op of DualPipeV's overlapped
// pairs to the other half's compute.
func (tr *iteration) pairCompute() []map[pipeline.Op]units.Time {
	hide := make([]map[pipeline.Op]units.Time, len(tr.sch.Order))
	for d := range hide {
		hide[d] = map[pipeline.Op]units.Time{}
	}
	tr.eachPair(func(d int, f, b pipeline.Op, cf, cb units.Time) {
		hide[d][f], hide[d][b] = cb, cf
	})
	return hide
}

// eachPair calls visit for each of DualPipeV's overlapped pairs on device
// d (an F followed at once by a B of the other chunk) with the two halves'
// compute; the B's counts its W when the W follows it at once (a full
// backward).
func (tr *iteration) eachPair(visit func(d int, f, b pipeline.Op, cf, cb units.Time)) {
	for d, order := range tr.sch.Order {
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
			visit(d, f, b, cf, cb)
		}
	}
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
		a = max(0, a-x.hide[d][o].under)
	}
	return a
}

// half is an op of an overlapped pair: the other op's compute, under
// which this op's all-to-alls run, and what this op's compute hides of the
// other op's all-to-alls, with their bytes a GPU.
type half struct {
	under, shown units.Time
	bytes        float64
	_            [0]func() // incomparable: no equality code in the browser build
}

// drawHidden records what each overlapped pair hides: under the compute
// of each op of a pair, the other op's all-to-alls, min(A, C), as one
// all-to-all of the expert-parallel group (purpose "ep", on the GPUs'
// communication streams), so that the animation draws the exchange beside
// the compute it hides under (the strip's send lane) and the summary
// counts it as communication that nothing waited for.
func (x *routed) drawHidden(tl *timeline.Timeline, tr *iteration) {
	if x.hide == nil {
		return
	}
	last := make([][3]int, len(tr.topo.GPUs)) // each GPU's last op, kind+1
	for i, n := 0, len(tl.Spans); i < n; i++ {
		s := &tl.Spans[i]
		kind := pipeline.B
		switch s.Kind {
		case timeline.Forward:
			kind = pipeline.F
		case timeline.Backward:
		default:
			continue
		}
		if _, ep, _ := tr.plan.ExpertCoord(s.GPU); ep != 0 {
			continue // one record for the group, at its first GPU
		}
		// One record per op, at its first span: a backward that launches
		// gradient buckets is drawn as several spans, which follow one
		// another among the GPU's.
		if key := [3]int{int(kind) + 1, s.Microbatch, s.Stage}; last[s.GPU] == key {
			continue
		} else {
			last[s.GPU] = key
		}
		d := tr.plan.Coord(s.GPU).PP
		for c, k := range tr.stageOfDev[d] {
			if h := x.hide[d][pipeline.Op{Kind: kind, Microbatch: s.Microbatch, Chunk: c}]; k == s.Stage && h.shown > 0 {
				g := tr.plan.ExpertGroup(s.GPU)
				tl.Collectives = append(tl.Collectives, timeline.Collective{Name: collective.OpAllToAll, Algorithm: "hidden",
					Ranks: len(g), GPUs: g, Bytes: units.Bytes(h.bytes), Purpose: "ep", Start: s.Start, End: s.Start + h.shown})
			}
		}
	}
}
