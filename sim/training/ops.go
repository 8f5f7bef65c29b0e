package training

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/pipeline"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// opTable is the graph's pipeline ops. ids[r][k][kind][mb] is the op of
// replica r, model stage k: its last piece when it is cut into
// gradient-bucket pieces (see buckets), and firsts holds the first, which
// is what waits for the op's inputs (−1: no such op).
type opTable struct {
	ids, firsts [][][3][]int
	// buckets[r][k] lists, for replica r and model stage k, the pieces the
	// stage's last backward is cut into: each piece finishes one gradient
	// bucket, whose collective may start at once (nil: one bucket).
	buckets [][][]int
	// work[r] is replica r's compute time on the reference GPU, for the
	// imbalance that variable-length batches cause.
	work []units.Time
	// next maps an op's last piece to the first piece of the op its
	// device runs after it; filled only for parallel.p2p: blocking, whose
	// sender waits for its message before that next op.
	next map[int]int
	// braids[d][o] is the compute of the other half of op o's braided
	// pair on device d (schedule stp, stp.go), built on first use.
	braids []map[pipeline.Op]units.Time
}

func newOpTable(replicas, stages, microbatches int) opTable {
	t := opTable{ids: make([][][3][]int, replicas), firsts: make([][][3][]int, replicas),
		buckets: make([][][]int, replicas), work: make([]units.Time, replicas)}
	for r := range t.ids {
		t.buckets[r] = make([][]int, stages)
		t.ids[r] = make([][3][]int, stages)
		t.firsts[r] = make([][3][]int, stages)
		for k := range t.ids[r] {
			for kind := range t.ids[r][k] {
				t.ids[r][k][kind] = make([]int, microbatches)
				t.firsts[r][k][kind] = make([]int, microbatches)
				for i := range t.ids[r][k][kind] {
					t.ids[r][k][kind][i] = -1
					t.firsts[r][k][kind][i] = -1
				}
			}
		}
	}
	return t
}

// pipelineOps adds every pipeline op of every live replica, chained in
// each device's Order; their data dependencies come in dependencies.
func (tr *iteration) pipelineOps() {
	sch := tr.sch
	tr.opTable = newOpTable(tr.plan.DP, tr.stages, sch.Microbatches)
	last := make([][]pipeline.Op, sch.Stages)
	for d := range last {
		last[d] = make([]pipeline.Op, sch.Chunks)
		for c := range last[d] {
			last[d][c] = tr.lastBackward(d, c)
		}
	}
	for r := range tr.ids {
		if !tr.simulated(r) {
			continue
		}
		for d, order := range sch.Order {
			prev := -1
			for _, o := range order {
				before := prev
				if sch.ReadyFirst { // the dispatcher orders the device's ops
					prev = -1
				}
				prev = tr.addPipelineOp(r, d, o, prev, o == last[d][o.Chunk])
				if blockingP2P(tr.par.P2P) && before >= 0 {
					if tr.next == nil {
						tr.next = map[int]int{}
					}
					tr.next[before] = tr.firsts[r][tr.stageOfDev[d][o.Chunk]][o.Kind][o.Microbatch]
				}
			}
		}
	}
}

// addPipelineOp adds op o of replica r on device d after the device's
// previous op prev (−1: none) and returns its last piece. The chunk's last
// backward is cut into one piece per gradient bucket.
func (tr *iteration) addPipelineOp(r, d int, o pipeline.Op, prev int, lastBackward bool) int {
	k := tr.stageOfDev[d][o.Chunk]
	op := tr.groupOp(r, d, k, o)
	var deps []int
	if prev >= 0 {
		deps = []int{prev}
	}
	pieces := 1
	if lastBackward {
		pieces = tr.bucketCount(k)
	}
	var id int
	for i := 0; i < pieces; i++ {
		piece := op
		piece.Compute, piece.Comm, piece.Tail = op.Compute/units.Time(pieces), op.Comm/units.Time(pieces), op.Tail/units.Time(pieces)
		if i == pieces-1 { // the last piece takes the remainders and frees the activations
			piece.Compute += op.Compute % units.Time(pieces)
			piece.Comm += op.Comm % units.Time(pieces)
			piece.Tail += op.Tail % units.Time(pieces)
		} else {
			piece.Give = taskgraph.Footprint{}
		}
		if i > 0 {
			piece.Take = taskgraph.Footprint{}
			deps = []int{id}
		}
		piece.Compute = max(piece.Compute, 1)
		id = tr.g.AddGroup(piece, deps...)
		if i == 0 {
			tr.firsts[r][k][o.Kind][o.Microbatch] = id
		}
		if pieces > 1 {
			tr.buckets[r][k] = append(tr.buckets[r][k], id)
		}
	}
	tr.ids[r][k][o.Kind][o.Microbatch] = id
	return id
}

// groupOp is op o of replica r on device d, model stage k, before it is
// cut into pieces: its spans, its compute and communication, the
// activations an F takes and its B gives back.
func (tr *iteration) groupOp(r, d, k int, o pipeline.Op) taskgraph.Group {
	op := taskgraph.Group{GPUs: tr.mpGroup[r][d], CommKind: tr.commKind,
		Span: timeline.Span{Microbatch: o.Microbatch, Stage: k, Label: fmt.Sprintf("%v%d", o.Kind, o.Microbatch)}}
	op.Compute, op.Comm = tr.op(o, k, tr.sch.SplitBackward)
	held := taskgraph.Footprint{Bytes: tr.actBytes[k], InFlight: 1 / float64(tr.sch.Chunks)}
	if tr.sdp != nil { // each worker computes and keeps its subnetwork's
		op.Compute, op.Comm = opParts(o.Kind, tr.sdpTimes(r), tr.sch.SplitBackward)
		held.Bytes = tr.sdpActivations(r)
	}
	switch o.Kind {
	case pipeline.F:
		op.Span.Kind, op.Take = timeline.Forward, held
	case pipeline.B:
		op.Span.Kind, op.Give = timeline.Backward, held
		if tr.heldW != nil {
			op.Take, op.Give, _ = tr.backwardFootprints(k, held)
		}
	case pipeline.W:
		op.Span.Kind = timeline.BackwardWeight
		if tr.heldW != nil {
			_, _, op.Give = tr.backwardFootprints(k, held)
		}
	}
	tr.sequenceCost(&op, r, k, o)
	tr.expertShare(&op, d, k, o)
	tr.braid(&op, d, o)
	op.Compute += tr.opCodec(o.Kind, k)
	tr.work[r] += op.Compute
	if op.Compute == 0 && op.Comm == 0 && op.Tail == 0 {
		op.Compute = 1 // a zero-length op still orders the pipeline
	}
	return op
}

// dependencies wires each op to the ops whose data it needs, through
// point-to-point messages when they are on different devices.
func (tr *iteration) dependencies() {
	sch := tr.sch
	for r := range tr.ids {
		if !tr.simulated(r) {
			continue
		}
		for k := 0; k < tr.stages; k++ {
			for mb := 0; mb < sch.Microbatches; mb++ {
				// An op's first piece waits for its inputs; its last piece
				// is what the next op waits for.
				ids, firsts := tr.ids[r][k], tr.firsts[r][k]
				f, b := ids[pipeline.F][mb], ids[pipeline.B][mb]
				if k > 0 {
					tr.message(r, k-1, k, tr.ids[r][k-1][pipeline.F][mb], firsts[pipeline.F][mb])
				}
				// With local losses a stage's backward starts from its own
				// loss: no gradient comes back from the next stage.
				if k < tr.stages-1 && !sch.LocalLoss {
					tr.message(r, k+1, k, tr.ids[r][k+1][pipeline.B][mb], firsts[pipeline.B][mb])
				}
				if b >= 0 && f >= 0 {
					tr.g.Depend(firsts[pipeline.B][mb], f)
				}
				if w := firsts[pipeline.W][mb]; w >= 0 && b >= 0 {
					tr.g.Depend(w, b)
				}
			}
		}
	}
}

// message makes op to (on model stage kTo) wait for op from (on stage
// kFrom) and for the activations or gradients it sends: one message per
// tp·cp rank on the network, or a closed-form delay. With parallel.p2p:
// blocking the receiver also waits for the all-gather of the slices
// (p2pGather) and the sender's next op for the whole exchange.
func (tr *iteration) message(r, kFrom, kTo, from, to int) {
	if from < 0 || to < 0 {
		return
	}
	dFrom, dTo := tr.sch.Layout[kFrom].Device, tr.sch.Layout[kTo].Device
	if dFrom == dTo || tr.fid == ideal || tr.p2pBytes == 0 {
		tr.g.Depend(to, from)
		return
	}
	src, dst := tr.mpGroup[r][dFrom], tr.mpGroup[r][dTo]
	var done []int
	if tr.fid != detailed {
		a, bw, err := tr.paths.Cost(src[0], dst[0])
		if err != nil {
			tr.g.Fail(err)
			return
		}
		t := a + bw.TransferTime(tr.p2pBytes)
		if tr.next != nil {
			t += tr.p2pGather
		}
		done = []int{tr.g.AddClosedForm(taskgraph.ClosedForm{Op: collective.OpPipelineSend, Algorithm: "p2p", Purpose: "pp", Bytes: tr.p2pBytes,
			GPUs: []int{src[0], dst[0]}, Time: t}, from)}
	} else {
		for i := range src {
			done = append(done, tr.g.AddMessage(tr.p2p, collective.Transfer{Src: src[i], Dst: dst[i], Bytes: tr.p2pBytes, Phase: collective.PhasePipeline}, from))
		}
		if tr.next != nil && tr.p2pGather > 0 {
			done = []int{tr.g.AddClosedForm(taskgraph.ClosedForm{Op: collective.OpAllGather, Algorithm: "ring", Purpose: "pp",
				Bytes: tr.p2pBytes * units.Bytes(len(dst)), GPUs: dst, Time: tr.p2pGather}, done...)}
		}
	}
	next, blocking := tr.next[from]
	for _, id := range done {
		tr.g.Depend(to, id)
		if blocking {
			tr.g.Depend(next, id)
		}
	}
}

// ddpBucket is PyTorch DDP's default gradient bucket (Li et al. 2020).
const ddpBucket = 25e6

// bucketCount is how many gradient buckets model stage k's gradients make:
// one per 25 MB, at most 8, and 1 when no data-parallel sum is needed or
// the sum waits for the whole backward (parallel.grad_reduce:
// after_backward, which sums each chunk's flat gradient buffer at once;
// parallel.cyclic, which relays the whole gradient).
func (tr *iteration) bucketCount(k int) int {
	if !tr.real || tr.fid == ideal || tr.plan.DP*tr.plan.CP == 1 || tr.par.GradReduce == GradReduceAfterBackward || tr.par.Cyclic {
		return 1
	}
	n := int((float64(tr.gradBytes(k)) + ddpBucket - 1) / ddpBucket)
	return min(max(n, 1), 8)
}
