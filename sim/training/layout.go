package training

import (
	"paraplay/sim/parallel"
	"paraplay/sim/pipeline"
)

// layout is where an iteration's work runs: the parallel plan, the
// pipeline schedule of each replica, the model stages its devices hold and
// the GPUs of each model-parallel group.
type layout struct {
	plan   parallel.Plan
	sch    pipeline.Schedule
	stages int // p·v model stages
	// stageOfDev[d][c] is the model stage of pipeline device d's chunk c.
	stageOfDev [][]int
	// mpGroup[r][d] lists the GPUs of replica r's pipeline device d (see
	// groups; nil until then).
	mpGroup [][][]int
	// mirrored: only replica 0 is simulated, the others repeat it
	// (mirror.go).
	mirrored bool
	// sdp is subnetwork data parallelism's slices of the model, which
	// worker holds which (sdp.go); nil when it is off.
	sdp *subnets
}

func newLayout(plan parallel.Plan, sch pipeline.Schedule) layout {
	l := layout{plan: plan, sch: sch, stages: sch.ModelStages(), stageOfDev: make([][]int, sch.Stages)}
	for d := range l.stageOfDev {
		l.stageOfDev[d] = make([]int, sch.Chunks)
	}
	for k, pl := range sch.Layout {
		l.stageOfDev[pl.Device][pl.Chunk] = k
	}
	return l
}

// groups lists, for every data-parallel replica and pipeline device, the
// GPUs of its tensor- and context-parallel group.
func (l *layout) groups() {
	pl := l.plan
	l.mpGroup = make([][][]int, pl.DP)
	for r := 0; r < pl.DP; r++ {
		l.mpGroup[r] = make([][]int, pl.PP)
		for d := 0; d < pl.PP; d++ {
			var g []int
			for c := 0; c < pl.CP; c++ {
				for t := 0; t < pl.TP; t++ {
					g = append(g, pl.Rank(parallel.Coord{DP: r, TP: t, PP: d, CP: c}))
				}
			}
			l.mpGroup[r][d] = g
		}
	}
}

// lastBackward is the last op of device d's order that finishes chunk c's
// gradients: its last W, or its last B when the backward is not split.
func (l *layout) lastBackward(d, c int) pipeline.Op {
	want := pipeline.B
	if l.sch.SplitBackward {
		want = pipeline.W
	}
	var last pipeline.Op
	for _, o := range l.sch.Order[d] {
		if o.Chunk == c && o.Kind == want {
			last = o
		}
	}
	return last
}
