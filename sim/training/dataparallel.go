package training

import (
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/compression"
	"paraplay/sim/pipeline"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// The values of parallel.grad_reduce and parallel.p2p.
const (
	// GradReduceOverlap starts each gradient bucket's collective as soon as
	// the chunk's last backward has produced it (PyTorch DDP; Li et al.
	// 2020), the default.
	GradReduceOverlap = "overlap"
	// GradReduceAfterBackward sums every chunk's gradients in one
	// collective each once the device's last backward of the iteration is
	// done: Megatron-LM's local DDP (--DDP-impl local, its default in
	// 2021), whose train_step calls allreduce_gradients after
	// forward_backward_func returns (NVIDIA/Megatron-LM
	// megatron/training.py at aed2f75e, April 2021).
	GradReduceAfterBackward = "after_backward"
	// P2PAsync lets a pipeline message travel while its sender computes,
	// the default.
	P2PAsync = "async"
	// P2PBlocking holds the sender until its message has landed, and has
	// the receiver all-gather the tensor-parallel slices it came in before
	// it starts: Megatron-LM's _communicate (megatron/
	// p2p_communication.py at aed2f75e, 2021, and 2e90a342f5, 2022) waits
	// on batch_isend_irecv and calls torch.cuda.synchronize, then
	// gather_split_1d_tensor, the scatter/gather of Narayanan et al. 2021,
	// §4.1, which gathers straight into one buffer (_all_gather_base) since
	// commit 37181ef43a of 2022-02-17.
	P2PBlocking = "blocking"
	// P2PBlockingList is P2PBlocking with the gather of Megatron-LM before
	// 37181ef43a (2021, the code of Narayanan et al. 2021): a list-based
	// torch.distributed.all_gather into t views of the output, which
	// PyTorch's ProcessGroupNCCL runs as an NCCL all-gather into a
	// flattened buffer of its own followed by one copy per rank into the
	// views, so the gathered tensor crosses HBM once more (read and
	// written) before the receiver starts. The 2022 code names it: the
	// former "does internal copies and can potentially cause slow down"
	// (megatron/mpu/random.py at 2e90a342f5). Priced by listGatherCopy.
	P2PBlockingList = "blocking_list"
)

// blockingP2P reports whether a pipeline message holds its sender
// (parallel.p2p: blocking or blocking_list).
func blockingP2P(mode string) bool { return mode == P2PBlocking || mode == P2PBlockingList }

// dataParallel adds, for every model chunk, the data-parallel gradient
// collectives after its last backward, then each GPU's optimizer step
// and ZeRO's parameter gathers.
func (tr *iteration) dataParallel() error {
	pl, sch := tr.plan, tr.sch
	for d := 0; d < sch.Stages; d++ {
		// done[r] collects what replica r's optimizer step waits for.
		done := make([][]int, pl.DP)
		for c := 0; c < sch.Chunks; c++ {
			if tr.par.Cyclic {
				tr.cyclicGradients(done)
				continue
			}
			if err := tr.gradients(d, c, done); err != nil {
				return err
			}
		}
		var opt []int
		for r := 0; r < pl.DP; r++ {
			if tr.simulated(r) {
				opt = append(opt, tr.optimizer(r, d, done[r]))
			}
		}
		if tr.sdp != nil {
			return tr.sdpRefresh(opt)
		}
		// ZeRO-1/2: every replica updated one shard; gather the new
		// parameters (ZeRO-3 gathers them before each pass instead).
		// With parallel.zero_layers, ZeRO-3 gathers the whole-parameter
		// layers' after the step too (osdp.go).
		if tr.par.ZeRO == 1 || tr.par.ZeRO == 2 || tr.par.ZeRO == 3 && tr.par.ZeROLayers > 0 {
			if err := tr.gatherAfterStep(d, opt); err != nil {
				return err
			}
		}
	}
	if tr.par.ZeRO == 3 {
		return tr.zero3Gathers()
	}
	return nil
}

// group is a set of GPUs (of the given replicas) that sum the gradients
// of the same parameters, bytes of them each, for purpose ("dp"; "sdp" for
// a subnetwork group).
type group struct {
	gpus, replicas []int
	bytes          units.Bytes
	purpose        string
}

// gradGroups lists the sums of model stage k's gradients on device d:
// for each tensor-parallel rank, over every copy of its weights — the
// live data-parallel replicas and, inside each, the context-parallel
// ranks (which saw other parts of the same sequences); or parallel.sdp's
// groups.
func (tr *iteration) gradGroups(d, k int) []group {
	if tr.sdp != nil {
		return tr.sdpGroups()
	}
	pl := tr.plan
	var gs []group
	for t := 0; t < pl.TP; t++ {
		g := group{bytes: tr.gradBytes(k), purpose: "dp"}
		for r := 0; r < pl.DP; r++ {
			for cp := 0; cp < pl.CP && tr.alive(r); cp++ {
				g.gpus = append(g.gpus, tr.mpGroup[r][d][cp*pl.TP+t])
				g.replicas = append(g.replicas, r)
			}
		}
		gs = append(gs, g)
	}
	return gs
}

// gradients adds the collectives that sum device d's chunk c gradients
// (gradGroups), bucket by bucket, and appends to done[r] the ops after
// which replica r's part is summed.
func (tr *iteration) gradients(d, c int, done [][]int) error {
	k := tr.stageOfDev[d][c]
	last, kLast := tr.lastBackward(d, c), k
	if tr.par.GradReduce == GradReduceAfterBackward {
		// After the flush: the device's last op of the iteration.
		order := tr.sch.Order[d]
		last = order[len(order)-1]
		kLast = tr.stageOfDev[d][last.Chunk]
	}
	op := collective.OpAllReduce
	if tr.par.ZeRO >= 1 {
		op = collective.OpReduceScatter
	}
	for _, g := range tr.gradGroups(d, k) {
		gpus, replica, grads := g.gpus, g.replicas, g.bytes
		ready := make([]int, len(gpus))
		for i, r := range replica {
			ready[i] = tr.ids[tr.source(r)][kLast][last.Kind][last.Microbatch]
		}
		if len(gpus) == 1 || tr.fid == ideal || grads == 0 {
			for i, r := range replica {
				done[r] = append(done[r], ready[i])
			}
			continue
		}
		nb := max(1, len(tr.buckets[0][k]))
		for j := 0; j < nb; j++ {
			bytes := grads / units.Bytes(nb)
			if j == nb-1 {
				bytes += grads % units.Bytes(nb)
			}
			if nb > 1 {
				for i, r := range replica {
					ready[i] = tr.buckets[tr.source(r)][k][j]
				}
			}
			rd, bytes := tr.compress(gpus, ready, bytes)
			var ids []int
			var err error
			if hierarchical(tr.par) && g.purpose == "dp" {
				ids, err = tr.sumHierarchical(g, rd, bytes)
			} else {
				ids, err = tr.collective(op, g.purpose, gpus, rd, bytes)
			}
			if err != nil {
				return err
			}
			for i, r := range replica {
				done[r] = append(done[r], ids[i])
			}
		}
	}
	return nil
}

// compress applies the scenario's compression to a data-parallel gradient
// collective (encode).
func (tr *iteration) compress(gpus, ready []int, bytes units.Bytes) ([]int, units.Bytes) {
	return tr.encode(gpus, ready, bytes, tr.s.Compression.Ratio)
}

// encode compresses a data-parallel collective of bytes to ratio of them:
// the bytes on the wire shrink by the ratio, and each rank first spends
// compression.time_per_mib per MiB of the uncompressed buffer on its
// compute stream. It returns the ops the ranks now start after; ready has
// one entry per GPU (a compressed run is never mirrored).
func (tr *iteration) encode(gpus, ready []int, bytes units.Bytes, ratio float64) ([]int, units.Bytes) {
	if ratio >= 1 {
		return ready, bytes
	}
	rd := append([]int(nil), ready...)
	if d := compression.Time(tr.s.Compression.TimePerMiB, bytes); d > 0 {
		for i := range rd {
			rd[i] = tr.g.AddCompute(timeline.Span{GPU: gpus[i], Kind: timeline.Compress, Label: "C"}, d, rd[i])
		}
	}
	return rd, compression.Bytes(bytes, ratio)
}

// gatherAfterStep all-gathers device d's updated parameters across the
// replicas once every replica's step (opt[r]) is done.
func (tr *iteration) gatherAfterStep(d int, opt []int) error {
	pl := tr.plan
	if pl.DP == 1 || tr.fid == ideal || !tr.real {
		return nil
	}
	var params units.Bytes
	for c := 0; c < tr.sch.Chunks; c++ {
		k := tr.stageOfDev[d][c]
		if tr.par.ZeRO == 3 {
			params += tr.gradBytes(k) - tr.shardedBytes(k) // osdp.go
		} else {
			params += tr.gradBytes(k)
		}
	}
	if params == 0 {
		return nil
	}
	sg := tr.par.ShardGroup()
	for j := range tr.mpGroup[0][d] {
		var gpus, ready []int
		for r, i := 0, 0; r < pl.DP; r++ {
			if tr.alive(r) {
				gpus = append(gpus, tr.mpGroup[r][d][j])
				ready = append(ready, opt[min(i, len(opt)-1)]) // opt: a live replica's each, or replica 0's alone (mirrored)
				i++
			}
			if (r+1)%sg != 0 {
				continue // gather within each ZeRO group of sg replicas (hzp.go)
			}
			if len(gpus) >= 2 {
				// compression.parameters shrinks the gather (Xu et al. 2024).
				rd, bytes := tr.encode(gpus, ready, params, tr.s.Compression.Parameters)
				if _, err := tr.collective(collective.OpAllGather, "zero", gpus, rd, bytes); err != nil {
					return err
				}
			}
			gpus, ready = nil, nil
		}
	}
	return nil
}

// zero3Gathers adds ZeRO-3's parameter all-gathers: before every F and B,
// the chunk's parameters are gathered across the replicas, issued when the
// op before it on the device starts (one op of prefetch), so the gather
// hides behind that op's compute when it is short enough.
func (tr *iteration) zero3Gathers() error {
	if tr.plan.DP == 1 || tr.fid == ideal || !tr.real {
		return nil
	}
	for d, order := range tr.sch.Order {
		for i, o := range order {
			if o.Kind == pipeline.W || i == 0 {
				continue
			}
			if err := tr.zero3Gather(d, o, order[i-1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// zero3Gather adds the gathers of op o's parameters on device d, one per
// tensor- and context-parallel rank, prefetched with the op prev before
// it.
func (tr *iteration) zero3Gather(d int, o, prev pipeline.Op) error {
	k := tr.stageOfDev[d][o.Chunk]
	kp := tr.stageOfDev[d][prev.Chunk]
	sg := tr.par.ShardGroup()
	if tr.shardedBytes(k) == 0 {
		return nil // parallel.zero_layers keeps all of stage k whole (osdp.go)
	}
	for j := 0; j < len(tr.mpGroup[0][d])*tr.plan.DP/sg; j++ {
		// Rank j%mp of the ZeRO group j/mp (one group of all but with
		// parallel.zero_group, hzp.go).
		lo := j / len(tr.mpGroup[0][d]) * sg
		var gpus, ready, replicas []int
		for r := lo; r < lo+sg; r++ {
			if !tr.alive(r) {
				continue
			}
			gpus = append(gpus, tr.mpGroup[r][d][j%len(tr.mpGroup[0][d])])
			if !tr.simulated(r) {
				continue // a mirror: replica 0's ops wait for the gather
			}
			// Depend on what the previous op waited for, not on
			// the op itself: the gather runs while it computes.
			ready = append(ready, tr.firsts[r][kp][prev.Kind][prev.Microbatch])
			replicas = append(replicas, r)
		}
		if len(gpus) < 2 {
			continue
		}
		ids, err := tr.prefetch(gpus, ready, tr.shardedBytes(k))
		if err != nil {
			return err
		}
		for i, r := range replicas {
			tr.g.Depend(tr.firsts[r][k][o.Kind][o.Microbatch], ids[i])
		}
	}
	return nil
}

// prefetch adds an all-gather that may start with the ops in ready (it
// waits for their dependencies, not for them to finish).
func (tr *iteration) prefetch(gpus, ready []int, bytes units.Bytes) ([]int, error) {
	starts := make([]int, len(ready))
	for r, id := range ready {
		// A join that waits for what ready[r] waits for: the ops before it.
		starts[r] = tr.g.AddJoin(tr.g.Predecessors(id)...)
	}
	starts, bytes = tr.encode(gpus, starts, bytes, tr.s.Compression.Parameters)
	return tr.collective(collective.OpAllGather, "zero", gpus, starts, bytes)
}

// onTorus and torusTimeOf are torus.go's torusCollective and torusTime.
var (
	onTorus     func(tr *iteration, op collective.Op, purpose string, gpus, ready []int, bytes units.Bytes) ([]int, bool, error)
	torusTimeOf func(tr *iteration, op collective.Op, gpus []int, bytes units.Bytes) (float64, bool)
)

// collective adds a data-parallel collective over gpus (rank r may start
// after ready[r]) and returns, per rank, the op after which rank r is done.
func (tr *iteration) collective(op collective.Op, purpose string, gpus, ready []int, bytes units.Bytes) ([]int, error) {
	if onTorus != nil {
		if done, ok, err := onTorus(tr, op, purpose, gpus, ready, bytes); ok {
			return done, err // a box of a TPU slice's torus (torus.go)
		}
	}
	n := len(gpus)
	cfg := tr.ringConfig(gpus, bytes)
	algo := tr.algorithm(gpus)
	done := make([]int, n)
	if tr.fid != detailed {
		secs, err := tr.ringTime(op, cfg, gpus)
		if err != nil {
			return nil, err
		}
		if tr.mirrored {
			ready = slices.Compact(slices.Clone(ready)) // the mirrors wait for replica 0's ops
		}
		id := tr.g.AddClosedForm(taskgraph.ClosedForm{Op: op, Algorithm: algo, Protocol: tr.protocol, Channels: cfg.Channels, Purpose: purpose, Bytes: bytes, GPUs: gpus,
			Time: max(1, units.Round(secs))}, ready...)
		for r := range done {
			done[r] = id
		}
		return done, nil
	}
	sch, err := collective.New(string(op), algo, cfg)
	if err != nil {
		return nil, err
	}
	first := tr.g.AddSchedule(sch, gpus, ready, purpose)
	cs := tr.g.Timeline().Collectives
	cs[len(cs)-1].Protocol = tr.protocol
	// Rank r is done when the messages into it and out of it are.
	for r := range done {
		done[r] = tr.g.AddJoin()
	}
	for i, t := range sch.Transfers {
		tr.g.Depend(done[t.Dst], first+i)
		tr.g.Depend(done[t.Src], first+i)
	}
	return done, nil
}

// optimizer adds replica r's device d optimizer step after deps and
// returns it: a join for a synthetic model, which has none.
func (tr *iteration) optimizer(r, d int, deps []int) int {
	if !tr.real {
		return tr.g.AddJoin(deps...)
	}
	step := tr.optimizerStep(tr.stageOfDev[d])
	if tr.sdp != nil {
		step = tr.sdpOptimizerStep(r)
	}
	return tr.g.AddGroup(taskgraph.Group{GPUs: tr.mpGroup[r][d], Compute: step,
		Span: timeline.Span{Kind: timeline.Optimizer, Label: "optimizer", Stage: tr.stageOfDev[d][0]}}, deps...)
}
