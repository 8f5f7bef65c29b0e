package training

import (
	"fmt"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/compression"
	"paraplay/sim/hw"
	"paraplay/sim/parallel"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// training is one training iteration being laid out as a task graph.
//
// The unit of work is a pipeline op (F, B or W of one microbatch on one
// model chunk) of one model-parallel group: the tp·cp GPUs that share a
// data-parallel replica and a pipeline device run it in lockstep, so it is
// one group op on all their compute streams (see groupOp). Around the ops:
//   - pipeline point-to-point messages between consecutive model stages,
//     b·(s/cp)·h elements per microbatch and direction, split over the tp
//     ranks (Megatron's scatter/gather; Narayanan et al. 2021, §4.1);
//   - the data-parallel gradient collectives of each model chunk, in
//     buckets of about 25 MB (PyTorch DDP's default, Li et al. 2020; at
//     most 8 per chunk): the chunk's last backward is cut into as many
//     pieces, and each bucket's collective starts when its piece ends, on
//     the communication stream, so it overlaps the rest of the backward
//     and the remaining compute; ZeRO-1/2 reduce-scatter instead and all-gather the updated
//     parameters after the step, ZeRO-3 also all-gathers parameters before
//     every pass, one op ahead (Rajbhandari et al. 2020);
//   - the optimizer step, memory-bound: 28 bytes of HBM traffic per
//     parameter of the shard this GPU updates (read fp32 master weights,
//     Adam's two moments and the gradient, write them back and the bf16
//     copy; an estimate, not a measurement).
type training struct {
	s     scenario.Scenario
	plan  parallel.Plan
	sch   pipeline.Schedule
	topo  *topo.Topology
	g     *taskgraph.Graph
	gpu   hw.GPU
	model workload.Model
	real  bool // a real model (else synthetic op times)
	ideal bool // communication is free
	// detailed: messages and DP collectives are simulated on the links;
	// otherwise they are closed-form delays and spans.
	detailed bool
	eff      float64
	elem     float64 // bytes per element of activations and gradients

	stages     int   // p·v model stages
	layers     []int // layers[k] of model stage k
	opTime     [3][]units.Time
	commTime   [2][]units.Time // blocking TP/CP/EP communication of F and B
	commKind   timeline.Kind
	actBytes   []float64 // activation bytes one microbatch leaves on stage k
	p2pBytes   units.Bytes
	stageOfDev [][]int // stageOfDev[d][c]: model stage of device d's chunk c

	// ids[r][k][kind][mb] is the op of replica r, model stage k: its last
	// piece when it is cut into gradient-bucket pieces (see buckets), and
	// firsts holds the first, which is what waits for the op's inputs.
	ids, firsts [][][3][]int
	// mpGroup[r][d] lists the GPUs of replica r's pipeline device d.
	mpGroup [][][]int
	// buckets[r][k] lists, for replica r and model stage k, the pieces the
	// stage's last backward is cut into: each piece finishes one gradient
	// bucket, whose collective may start at once (nil: one bucket).
	buckets [][][]int
	p2p     taskgraph.Channel // the pipeline's point-to-point messages
	paths   *topo.Paths       // the α and bandwidth of routes between GPUs

	// What makes the cluster imperfect (faults.go, hetero.go).
	it *iterState // this iteration's faults, batch and replicas; nil: one plain iteration
	// mult[g] is GPU g's compute time over the reference GPU's (1 on a
	// uniform cluster): its preset's peak × efficiency against cluster.gpu's.
	mult  []float64
	gpuOf []hw.GPU // by GPU: its preset
	// work[r] is replica r's compute time on the reference GPU, for the
	// imbalance that variable-length batches cause.
	work    []units.Time
	jitter  jitterSource
	seqCost map[[2]int][5]units.Time // (stage, sequence length) → F, B, W, comm F, comm B
}

// Simulate runs a training scenario: one plain iteration, or the
// iterations with faults, stragglers and variable batches (faults.go).
// s must be valid (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	if imperfect(s) {
		return simulateIterations(s)
	}
	return simulateIteration(s, nil)
}

// simulateIteration runs one iteration; it, when not nil, says what this
// iteration of a longer run looks like.
func simulateIteration(s scenario.Scenario, it *iterState) (*timeline.Timeline, error) {
	tr, err := newTraining(s, it)
	if err != nil {
		return nil, err
	}
	if err := tr.build(); err != nil {
		return nil, err
	}
	tl, err := tr.g.Finish()
	if err != nil {
		return nil, err
	}
	tr.record(tl)
	return tl, nil
}

func newTraining(s scenario.Scenario, it *iterState) (*training, error) {
	sch, err := pipeline.New(s.Parallel.Schedule, s.Parallel.PP, s.Parallel.Microbatches, s.Parallel.ChunksArg())
	if err != nil {
		return nil, fmt.Errorf("parallel.schedule: %w", err)
	}
	t, gpu, err := trainingTopology(s)
	if err != nil {
		return nil, err
	}
	if it != nil && s.Cluster.GPU != "" {
		it.degrade(t)
	}
	tr, err := newTrainingOn(s, sch, t, gpu, it)
	if err != nil {
		return nil, err
	}
	if err := tr.gpuTypes(); err != nil {
		return nil, err
	}
	return tr, nil
}

// trainingTopology builds the scenario's hardware and looks up its GPU (a
// zero hw.GPU for ideal links).
func trainingTopology(s scenario.Scenario) (*topo.Topology, hw.GPU, error) {
	n := s.NumGPUs()
	if s.Cluster.GPU == "" {
		return topo.Switched(n, topo.Port{Bandwidth: s.Link.Bandwidth, Latency: s.Link.Latency, Kind: "ideal"}), hw.GPU{}, nil
	}
	per := s.Cluster.GPUsPerNode
	if per == 0 {
		per = n
	}
	network := topo.Network(s.Cluster.Network)
	if s.Cluster.Network == "ideal" {
		network = ""
	}
	b, err := cluster.Build(cluster.Spec{GPU: s.Cluster.GPU, Nodes: max(1, s.Cluster.Nodes), PerNode: per,
		Intra: s.Cluster.Intra, Inter: s.Cluster.Inter, Network: network})
	if err != nil {
		return nil, hw.GPU{}, err
	}
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		return nil, hw.GPU{}, err
	}
	return b.Topology, gpu, nil
}

// newTrainingOn prepares the iteration of s (it: see simulateIteration)
// with its schedule sch on the topology t of GPUs gpu, both built from s
// (the estimator reuses them across scenarios). The caller gives each GPU
// its type (gpuTypes, or the estimator's uniform cluster).
func newTrainingOn(s scenario.Scenario, sch pipeline.Schedule, t *topo.Topology, gpu hw.GPU, it *iterState) (*training, error) {
	p := s.Parallel
	tr := &training{s: s, plan: p.Plan(), elem: 2, sch: sch, topo: t, gpu: gpu, it: it}
	tr.ideal = s.Cluster.Network == "ideal"
	n := s.NumGPUs()
	var err error
	tr.real = !s.Model.IsSynthetic()
	if tr.real {
		if s.Cluster.GPU == "" {
			return nil, fmt.Errorf("cluster.gpu: a real model needs a GPU preset to time its FLOPs (or give model.synthetic op times)")
		}
		if tr.model, err = s.Model.Resolve(); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		if err := tr.model.ValidateSplit(p.TP, p.CP); err != nil {
			return nil, fmt.Errorf("parallel.tp: %w", err)
		}
		tr.eff = s.Training.Efficiency
		if tr.eff == 0 {
			tr.eff = tr.gpu.Efficiency
		}
	}
	switch s.Fidelity {
	case "detailed":
		tr.detailed = true
	case "auto":
		tr.detailed = n <= taskgraph.AutoDetailedRanks
	}
	return tr, nil
}

// build lays out the whole iteration as a graph.
func (tr *training) build() error {
	tr.paths = topo.NewPaths(tr.topo)
	tr.groups()
	if err := tr.costs(); err != nil {
		return err
	}
	tr.g = taskgraph.New(tr.topo, tr.s.Title())
	if !tr.detailed {
		tr.g.Timeline().Fidelity = taskgraph.Analytic
	}
	tr.g.TrackMemory()
	tr.p2p = tr.g.AddChannel(collective.Schedule{Op: "send-recv", Algorithm: "p2p", Ranks: len(tr.topo.GPUs)},
		taskgraph.Identity(len(tr.topo.GPUs)), taskgraph.PointToPoint)
	if tr.it != nil || tr.heterogeneous() {
		tr.g.ScaleCompute(tr.scaleCompute)
	}
	tr.ops()
	tr.dependencies()
	return tr.dataParallel()
}

// costs works out each model stage's layers, op times, blocking
// communication and activation memory.
func (tr *training) costs() error {
	sch, p := tr.sch, tr.s.Parallel
	tr.stages = sch.ModelStages()
	tr.stageOfDev = make([][]int, sch.Stages)
	for d := range tr.stageOfDev {
		tr.stageOfDev[d] = make([]int, sch.Chunks)
	}
	for k, pl := range sch.Layout {
		tr.stageOfDev[pl.Device][pl.Chunk] = k
	}
	for i := range tr.opTime {
		tr.opTime[i] = make([]units.Time, tr.stages)
	}
	for i := range tr.commTime {
		tr.commTime[i] = make([]units.Time, tr.stages)
	}
	tr.actBytes = make([]float64, tr.stages)
	tr.layers = make([]int, tr.stages)
	if !tr.real {
		syn := tr.s.Model.Synthetic
		v := units.Time(sch.Chunks)
		for k := 0; k < tr.stages; k++ {
			tr.opTime[pipeline.F][k] = syn.Forward / v
			tr.opTime[pipeline.B][k] = syn.BackwardInput / v
			tr.opTime[pipeline.W][k] = syn.BackwardWeight / v
		}
		tr.p2pBytes = 0
		return nil
	}
	m := tr.model
	if m.Layers < tr.stages {
		return fmt.Errorf("parallel.pp: %d model stages (pp·v) for %d layers; each stage needs a layer", tr.stages, m.Layers)
	}
	for k := 0; k < tr.stages; k++ {
		tr.layers[k] = m.Layers / tr.stages
		if k < m.Layers%tr.stages {
			tr.layers[k]++
		}
	}
	if p.Partition == "balanced" {
		tr.balance()
	}
	b, t, c := p.MicroBatchSize, p.TP, p.CP
	r := workload.Recompute(p.Recompute)
	seq := float64(m.SeqLen) / float64(c)
	actElems := float64(b) * seq * float64(m.Hidden) // one layer boundary, one microbatch
	tr.p2pBytes = compression.Bytes(units.Bytes(actElems*tr.elem/float64(t)), tr.s.Compression.Activations)
	// Compressed activations shrink the pipeline messages and the tensor-,
	// context- and expert-parallel exchanges alike (package compression).
	tpAR, cpStep, epA2A := tr.commCosts(actElems * tr.s.Compression.Activations)
	perLayerAct := workload.ActivationBytesPerLayerCP(m, b, t, c, p.SequenceParallel, r)
	layer := workload.LayerFLOPs(m, b, t, c, r)
	attn := workload.OpTime(layer.Attention.Forward, tr.gpu, tr.eff)
	for k := 0; k < tr.stages; k++ {
		f := workload.StageFLOPs(m, tr.layers[k], k == 0, k == tr.stages-1, b, t, c, r)
		tr.opTime[pipeline.F][k] = workload.OpTime(f.Forward, tr.gpu, tr.eff)
		tr.opTime[pipeline.B][k] = workload.OpTime(f.BackwardInput+f.Recompute, tr.gpu, tr.eff)
		tr.opTime[pipeline.W][k] = workload.OpTime(f.BackwardWeight, tr.gpu, tr.eff)
		l := units.Time(tr.layers[k])
		// Megatron: two all-reduces (or reduce-scatter + all-gather with
		// sequence parallelism, the same bytes) per layer in each pass.
		fwd, bwd := 2*l*tpAR, 2*l*tpAR
		// Ring attention: c−1 K/V exchanges per layer, hidden behind the
		// attention compute when it is long enough (Liu et al. 2023).
		if c > 1 {
			fwd += l * max(0, units.Time(c-1)*cpStep-attn)
			bwd += l * max(0, 2*units.Time(c-1)*cpStep-2*attn)
		}
		// Expert parallelism: dispatch and combine all-to-alls around the
		// expert MLP in each pass (Lepikhin et al. 2020).
		fwd += 2 * l * epA2A
		bwd += 2 * l * epA2A
		tr.commTime[0][k], tr.commTime[1][k] = fwd, bwd
		tr.actBytes[k] = perLayerAct * float64(tr.layers[k])
	}
	switch {
	case p.TP > 1:
		tr.commKind = timeline.TPComm
	case p.CP > 1:
		tr.commKind = timeline.CPComm
	default:
		tr.commKind = timeline.EPComm
	}
	return nil
}

// commCosts prices, with the α–β closed forms on the groups' bottleneck
// paths, one TP all-reduce of a layer's activations, one ring-attention
// K/V step and one MoE all-to-all.
func (tr *training) commCosts(actElems float64) (tpAR, cpStep, epA2A units.Time) {
	if tr.ideal {
		return 0, 0, 0
	}
	p := tr.s.Parallel
	// groupCost prices a collective on the group's bottleneck: the slowest
	// path between neighbouring ranks, so that a group spanning two nodes
	// pays for the network hop, not for the NVLink between its first two.
	groupCost := func(g []int) (units.Time, units.Bandwidth) {
		alpha, bw, err := tr.paths.Bottleneck(g)
		if err != nil {
			return 0, units.Bandwidth(1e18)
		}
		return alpha, bw
	}
	if p.TP > 1 {
		a, bw := groupCost(tr.plan.Group(0, parallel.TP))
		tpAR = units.Round(collective.RingTime(p.TP, units.Bytes(actElems*tr.elem), a, bw))
	}
	if p.CP > 1 {
		a, bw := groupCost(tr.plan.Group(0, parallel.CP))
		kv := actElems * float64(tr.model.KVHeadCount()*tr.model.HeadDim()) / float64(tr.model.Hidden) / float64(p.TP)
		cpStep = a + bw.TransferTime(units.Bytes(2*kv*tr.elem))
	}
	if tr.model.IsMoE() && p.EP > 1 {
		a, bw := groupCost(tr.plan.Group(0, parallel.DP)[:p.EP])
		s := units.Bytes(actElems * tr.elem * float64(tr.model.TopK) / float64(p.TP))
		n := float64(p.EP)
		epA2A = units.Round((n-1)*a.Seconds() + (n-1)/n*float64(s)/float64(bw))
	}
	return tpAR, cpStep, epA2A
}

// groups lists, for every data-parallel replica and pipeline device, the
// GPUs of its tensor- and context-parallel group.
func (tr *training) groups() {
	pl := tr.plan
	tr.mpGroup = make([][][]int, pl.DP)
	for r := 0; r < pl.DP; r++ {
		tr.mpGroup[r] = make([][]int, pl.PP)
		for d := 0; d < pl.PP; d++ {
			var g []int
			for c := 0; c < pl.CP; c++ {
				for t := 0; t < pl.TP; t++ {
					g = append(g, pl.Rank(parallel.Coord{DP: r, TP: t, PP: d, CP: c}))
				}
			}
			tr.mpGroup[r][d] = g
		}
	}
}

// ops adds every pipeline op of every replica, chained in each device's
// Order; their data dependencies come in dependencies.
func (tr *training) ops() {
	sch, m := tr.sch, tr.sch.Microbatches
	v := float64(sch.Chunks)
	tr.ids = make([][][3][]int, tr.plan.DP)
	tr.firsts = make([][][3][]int, tr.plan.DP)
	tr.buckets = make([][][]int, tr.plan.DP)
	last := make([][]pipeline.Op, sch.Stages)
	for d := range last {
		last[d] = make([]pipeline.Op, sch.Chunks)
		for c := range last[d] {
			last[d][c] = tr.lastBackward(d, c)
		}
	}
	tr.work = make([]units.Time, len(tr.ids))
	for r := range tr.ids {
		tr.buckets[r] = make([][]int, tr.stages)
		tr.ids[r] = make([][3][]int, tr.stages)
		tr.firsts[r] = make([][3][]int, tr.stages)
		for k := range tr.ids[r] {
			for kind := range tr.ids[r][k] {
				tr.ids[r][k][kind] = make([]int, m)
				tr.firsts[r][k][kind] = make([]int, m)
				for i := range tr.ids[r][k][kind] {
					tr.ids[r][k][kind][i] = -1
					tr.firsts[r][k][kind][i] = -1
				}
			}
		}
		if !tr.alive(r) {
			continue
		}
		for d, order := range sch.Order {
			prev := -1
			for _, o := range order {
				k := tr.stageOfDev[d][o.Chunk]
				op := taskgraph.Group{GPUs: tr.mpGroup[r][d], CommKind: tr.commKind,
					Span: timeline.Span{Microbatch: o.Microbatch, Stage: k, Label: fmt.Sprintf("%v%d", o.Kind, o.Microbatch)}}
				switch o.Kind {
				case pipeline.F:
					op.Span.Kind, op.Compute, op.Comm = timeline.Forward, tr.opTime[pipeline.F][k], tr.commTime[0][k]
					op.Take = taskgraph.Footprint{Bytes: tr.actBytes[k], InFlight: 1 / v}
				case pipeline.B:
					op.Span.Kind, op.Compute, op.Comm = timeline.Backward, tr.opTime[pipeline.B][k], tr.commTime[1][k]
					if !sch.SplitBackward {
						op.Compute += tr.opTime[pipeline.W][k]
					}
					op.Give = taskgraph.Footprint{Bytes: tr.actBytes[k], InFlight: 1 / v}
				case pipeline.W:
					op.Span.Kind, op.Compute = timeline.BackwardWeight, tr.opTime[pipeline.W][k]
				}
				tr.sequenceCost(&op, r, k, o)
				tr.work[r] += op.Compute
				if op.Compute == 0 && op.Comm == 0 {
					op.Compute = 1 // a zero-length op still orders the pipeline
				}
				var deps []int
				if prev >= 0 {
					deps = []int{prev}
				}
				pieces := 1
				if o == last[d][o.Chunk] {
					pieces = tr.bucketCount(k)
				}
				var id int
				for i := 0; i < pieces; i++ {
					piece := op
					piece.Compute, piece.Comm = op.Compute/units.Time(pieces), op.Comm/units.Time(pieces)
					if i == pieces-1 { // the last piece takes the remainders and frees the activations
						piece.Compute += op.Compute % units.Time(pieces)
						piece.Comm += op.Comm % units.Time(pieces)
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
				prev = id
			}
		}
	}
}

// dependencies wires each op to the ops whose data it needs, through
// point-to-point messages when they are on different devices.
func (tr *training) dependencies() {
	sch := tr.sch
	for r := range tr.ids {
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
// tp·cp rank on the network, or a closed-form delay.
func (tr *training) message(r, kFrom, kTo, from, to int) {
	if from < 0 || to < 0 {
		return
	}
	dFrom, dTo := tr.sch.Layout[kFrom].Device, tr.sch.Layout[kTo].Device
	if dFrom == dTo || tr.ideal || tr.p2pBytes == 0 {
		tr.g.Depend(to, from)
		return
	}
	src, dst := tr.mpGroup[r][dFrom], tr.mpGroup[r][dTo]
	if !tr.detailed {
		a, bw, err := tr.paths.Cost(src[0], dst[0])
		if err != nil {
			tr.g.Fail(err)
			return
		}
		delay := tr.g.AddClosedForm(taskgraph.ClosedForm{Op: "send-recv", Algorithm: "p2p", Purpose: "pp", Bytes: tr.p2pBytes,
			GPUs: []int{src[0], dst[0]}, Time: a + bw.TransferTime(tr.p2pBytes)}, from)
		tr.g.Depend(to, delay)
		return
	}
	for i := range src {
		id := tr.g.AddMessage(tr.p2p, collective.Transfer{Src: src[i], Dst: dst[i], Bytes: tr.p2pBytes, Phase: "pp"}, from)
		tr.g.Depend(to, id)
	}
}

// dataParallel adds, for every model chunk, the data-parallel gradient
// collective after its last backward, then each GPU's optimizer step.
func (tr *training) dataParallel() error {
	pl, sch := tr.plan, tr.sch
	p := tr.s.Parallel
	for d := 0; d < sch.Stages; d++ {
		// done[r] collects what replica r's optimizer step waits for.
		done := make([][]int, pl.DP)
		for c := 0; c < sch.Chunks; c++ {
			k := tr.stageOfDev[d][c]
			last := tr.lastBackward(d, c)
			grads := tr.gradBytes(k)
			// Gradients are summed over every copy of the same weights: the
			// data-parallel replicas and, inside each, the context-parallel
			// ranks (which saw other parts of the same sequences).
			for t := 0; t < pl.TP; t++ {
				var gpus, ready, replica []int
				for r := 0; r < pl.DP; r++ {
					if !tr.alive(r) {
						continue
					}
					for c := 0; c < pl.CP; c++ {
						gpus = append(gpus, tr.mpGroup[r][d][c*pl.TP+t])
						ready = append(ready, tr.ids[r][k][last.Kind][last.Microbatch])
						replica = append(replica, r)
					}
				}
				if len(gpus) == 1 || tr.ideal || grads == 0 {
					for i, r := range replica {
						done[r] = append(done[r], ready[i])
					}
					continue
				}
				op := "all_reduce"
				if p.ZeRO >= 1 {
					op = "reduce_scatter"
				}
				nb := max(1, len(tr.buckets[0][k]))
				for j := 0; j < nb; j++ {
					bytes := grads / units.Bytes(nb)
					if j == nb-1 {
						bytes += grads % units.Bytes(nb)
					}
					if nb > 1 {
						for i, r := range replica {
							ready[i] = tr.buckets[r][k][j]
						}
					}
					rd, bytes := tr.compress(gpus, ready, bytes)
					ids, err := tr.collective(op, "dp", gpus, rd, bytes)
					if err != nil {
						return err
					}
					for i, r := range replica {
						done[r] = append(done[r], ids[i])
					}
				}
			}
		}
		var opt []int
		for r := 0; r < pl.DP; r++ {
			if tr.alive(r) {
				opt = append(opt, tr.optimizer(r, d, done[r]))
			}
		}
		// ZeRO-1/2: every replica updated one shard; gather the new
		// parameters (ZeRO-3 gathers them before each pass instead).
		if p.ZeRO == 1 || p.ZeRO == 2 {
			if err := tr.gatherAfterStep(d, opt); err != nil {
				return err
			}
		}
	}
	if p.ZeRO == 3 {
		return tr.zero3Gathers()
	}
	return nil
}

// gatherAfterStep all-gathers device d's updated parameters across the
// replicas once every replica's step (opt[r]) is done.
func (tr *training) gatherAfterStep(d int, opt []int) error {
	pl := tr.plan
	if pl.DP == 1 || tr.ideal || !tr.real {
		return nil
	}
	var params units.Bytes
	for c := 0; c < tr.sch.Chunks; c++ {
		params += tr.gradBytes(tr.stageOfDev[d][c])
	}
	for j := range tr.mpGroup[0][d] {
		var gpus []int
		for r := 0; r < pl.DP; r++ {
			if tr.alive(r) {
				gpus = append(gpus, tr.mpGroup[r][d][j])
			}
		}
		if len(gpus) < 2 {
			continue
		}
		if _, err := tr.collective("all_gather", "zero", gpus, opt, params); err != nil {
			return err
		}
	}
	return nil
}

// zero3Gathers adds ZeRO-3's parameter all-gathers: before every F and B,
// the chunk's parameters are gathered across the replicas, issued when the
// op before it on the device starts (one op of prefetch), so the gather
// hides behind that op's compute when it is short enough.
func (tr *training) zero3Gathers() error {
	pl := tr.plan
	if pl.DP == 1 || tr.ideal || !tr.real {
		return nil
	}
	for d, order := range tr.sch.Order {
		for i, o := range order {
			if o.Kind == pipeline.W || i == 0 {
				continue
			}
			k := tr.stageOfDev[d][o.Chunk]
			prev := order[i-1]
			kp := tr.stageOfDev[d][prev.Chunk]
			for j := range tr.mpGroup[0][d] {
				var gpus, ready, replicas []int
				for r := 0; r < pl.DP; r++ {
					if !tr.alive(r) {
						continue
					}
					gpus = append(gpus, tr.mpGroup[r][d][j])
					// Depend on what the previous op waited for, not on
					// the op itself: the gather runs while it computes.
					ready = append(ready, tr.firsts[r][kp][prev.Kind][prev.Microbatch])
					replicas = append(replicas, r)
				}
				if len(gpus) < 2 {
					continue
				}
				ids, err := tr.prefetch(gpus, ready, tr.gradBytes(k))
				if err != nil {
					return err
				}
				for i, r := range replicas {
					tr.g.Depend(tr.firsts[r][k][o.Kind][o.Microbatch], ids[i])
				}
			}
		}
	}
	return nil
}

// prefetch adds an all-gather that may start with the ops in ready (it
// waits for their dependencies, not for them to finish).
func (tr *training) prefetch(gpus, ready []int, bytes units.Bytes) ([]int, error) {
	starts := make([]int, len(ready))
	for r, id := range ready {
		// A join that waits for what ready[r] waits for: the ops before it.
		starts[r] = tr.g.AddJoin(tr.g.Predecessors(id)...)
	}
	return tr.collective("all_gather", "zero", gpus, starts, bytes)
}

// lastBackward is the last op of device d's order that finishes chunk c's
// gradients: its last W, or its last B when the backward is not split.
func (tr *training) lastBackward(d, c int) pipeline.Op {
	want := pipeline.B
	if tr.sch.SplitBackward {
		want = pipeline.W
	}
	var last pipeline.Op
	for _, o := range tr.sch.Order[d] {
		if o.Chunk == c && o.Kind == want {
			last = o
		}
	}
	return last
}

// gradBytes is the gradient one GPU of model stage k holds: 2 bytes per
// parameter of its shard (bf16 gradients, as ZeRO counts them).
func (tr *training) gradBytes(k int) units.Bytes {
	if !tr.real {
		return 0
	}
	psi := workload.StageParams(tr.model, tr.layers[k], k == 0, k == tr.stages-1, tr.s.Parallel.TP, tr.s.Parallel.EP)
	return units.Bytes(2 * psi)
}

// collective adds a data-parallel collective over gpus (rank r may start
// after ready[r]) and returns, per rank, the op after which rank r is done.
func (tr *training) collective(op, purpose string, gpus, ready []int, bytes units.Bytes) ([]int, error) {
	n := len(gpus)
	cfg := collective.Config{Ranks: n, Bytes: bytes}
	done := make([]int, n)
	if !tr.detailed {
		alpha, bw, err := tr.paths.Bottleneck(gpus)
		if err != nil {
			return nil, err
		}
		secs, err := collective.Time(op, "ring", cfg, alpha, bw)
		if err != nil {
			return nil, err
		}
		id := tr.g.AddClosedForm(taskgraph.ClosedForm{Op: op, Algorithm: "ring", Purpose: purpose, Bytes: bytes, GPUs: gpus,
			Time: max(1, units.Round(secs))}, ready...)
		for r := range done {
			done[r] = id
		}
		return done, nil
	}
	sch, err := collective.New(op, "ring", cfg)
	if err != nil {
		return nil, err
	}
	first := tr.g.AddSchedule(sch, gpus, ready, purpose)
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
// returns it.
func (tr *training) optimizer(r, d int, deps []int) int {
	if !tr.real {
		return tr.g.AddJoin(deps...)
	}
	t := tr.optimizerSpan(d)
	return tr.g.AddGroup(taskgraph.Group{GPUs: tr.mpGroup[r][d], Compute: t,
		Span: timeline.Span{Kind: timeline.Optimizer, Label: "optimizer", Stage: tr.stageOfDev[d][0]}}, deps...)
}

// optimizerSpan is the optimizer step of a GPU of pipeline device d:
// memory-bound, 28 bytes of HBM traffic per parameter of its shard.
func (tr *training) optimizerSpan(d int) units.Time {
	p := tr.s.Parallel
	var psi float64
	for c := 0; c < tr.sch.Chunks; c++ {
		k := tr.stageOfDev[d][c]
		psi += workload.StageParams(tr.model, tr.layers[k], k == 0, k == tr.stages-1, p.TP, p.EP)
	}
	shard := psi
	if p.ZeRO >= 1 {
		shard /= float64(p.DP)
	}
	return max(1, units.Round(28*shard/float64(tr.gpu.HBMBandwidth)))
}

// record fills in the timeline's memory and training metrics.
func (tr *training) record(tl *timeline.Timeline) {
	p := tr.s.Parallel
	batch := p.DP * p.Microbatches * p.MicroBatchSize
	info := &timeline.Training{Schedule: tr.sch.Name, Chunks: tr.sch.Chunks, Warnings: tr.s.Warnings()}
	if tr.real {
		r := workload.Recompute(p.Recompute)
		it := workload.IterationFLOPs(tr.model, batch, r)
		info.Tokens = float64(batch) * float64(tr.model.SeqLen)
		info.ModelFLOPs, info.HardwareFLOPs, info.PeakFLOPS = it.Model(), it.Hardware(), tr.gpu.PeakFLOPS
		if tr.heterogeneous() {
			// MFU divides by PeakFLOPS × GPUs: the mean peak of a mixed cluster.
			var sum float64
			for _, h := range tr.gpuOf {
				sum += h.PeakFLOPS
			}
			info.PeakFLOPS = sum / float64(len(tr.gpuOf))
		}
	}
	tl.Training = info
	for gpu := range tr.topo.GPUs {
		act := tr.g.ActivationsOf(gpu)
		m := timeline.Memory{GPU: gpu, Activations: act.Points, PeakInFlight: act.PeakInFlight}
		if tr.real {
			m.Capacity = tr.gpuOf[gpu].HBM
			d := tr.plan.Coord(gpu).PP
			m.Parameters, m.Gradients, m.OptimizerStates = tr.modelStates(d)
			m.Buffers = tr.zero3Buffer(d)
		}
		m.Peak = m.Static() + units.Bytes(act.Peak+0.5)
		tl.Memory = append(tl.Memory, m)
	}
}

// modelStates is the parameters, gradients and optimizer states that a GPU
// of pipeline device d holds (ZeRO's accounting over its chunks' shards).
func (tr *training) modelStates(d int) (params, grads, opt units.Bytes) {
	p := tr.s.Parallel
	var psi float64
	for ch := 0; ch < tr.sch.Chunks; ch++ {
		k := tr.stageOfDev[d][ch]
		psi += workload.StageParams(tr.model, tr.layers[k], k == 0, k == tr.stages-1, p.TP, p.EP)
	}
	st := workload.ModelStateBytes(psi, p.ZeRO, p.DP)
	return units.Bytes(st.Parameters), units.Bytes(st.Gradients), units.Bytes(st.OptimizerStates)
}

// zero3Buffer is the memory ZeRO-3 needs on pipeline device d for the
// parameters it gathers: as PyTorch FSDP does it (Zhao et al. 2023, §3.2),
// one wrapped unit — a transformer layer, or the embedding or the output
// head — is gathered at a time in bf16 while the next is prefetched, so two
// of the device's largest units at 2 bytes a parameter. (The timing model
// gathers a chunk's units in one collective, which moves the same bytes;
// holding a whole chunk would be far more memory than FSDP needs.) Without
// data parallelism nothing is gathered.
func (tr *training) zero3Buffer(d int) units.Bytes {
	p := tr.s.Parallel
	if p.ZeRO < 3 || tr.plan.DP == 1 || !tr.real {
		return 0
	}
	var unit float64
	for ch := 0; ch < tr.sch.Chunks; ch++ {
		k := tr.stageOfDev[d][ch]
		if tr.layers[k] > 0 {
			unit = max(unit, workload.StageParams(tr.model, 1, false, false, p.TP, p.EP))
		}
		if k == 0 {
			unit = max(unit, workload.StageParams(tr.model, 0, true, false, p.TP, p.EP))
		}
		if k == tr.stages-1 {
			unit = max(unit, workload.StageParams(tr.model, 0, false, true, p.TP, p.EP))
		}
	}
	return units.Bytes(2*2*unit + 0.5)
}

// ddpBucket is PyTorch DDP's default gradient bucket (Li et al. 2020).
const ddpBucket = 25e6

// bucketCount is how many gradient buckets model stage k's gradients make:
// one per 25 MB, at most 8, and 1 when no data-parallel sum is needed.
func (tr *training) bucketCount(k int) int {
	if !tr.real || tr.ideal || tr.plan.DP*tr.plan.CP == 1 {
		return 1
	}
	n := int((float64(tr.gradBytes(k)) + ddpBucket - 1) / ddpBucket)
	return min(max(n, 1), 8)
}
