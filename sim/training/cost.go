package training

import (
	"fmt"
	"paraplay/sim/gemm"

	"paraplay/sim/collective"
	"paraplay/sim/compression"
	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/parallel"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// bytesPerElement is the size of an activation or gradient element
// (bf16).
const bytesPerElement = 2

// costs is the cost model of an iteration: what each op of a model stage
// costs. A real model is priced from its FLOPs on the reference GPU
// (package workload); otherwise the scenario gives synthetic op times,
// and there is nothing to send between stages or to sum across replicas.
type costs struct {
	model workload.Model
	real  bool // a real model (else synthetic op times)
	pricing
	par scenario.Parallel
	// layers[k] is the number of layers of model stage k; opTime[kind][k]
	// its F, B and W compute, commTime its blocking TP/CP/EP
	// communication in F and B, of kind commKind.
	layers   []int
	opTime   [3][]units.Time
	commTime [2][]units.Time
	commKind timeline.Kind
	activationMemory
	p2pBytes units.Bytes // one pipeline message, per tensor-parallel rank
	// p2pGather is the all-gather of a message's tp slices on its
	// receiver's tensor-parallel group (parallel.p2p: blocking).
	p2pGather units.Time
	seqCost   map[[2]int][5]units.Time
}

// activationMemory is the activation memory of one microbatch on each model
// stage.
type activationMemory struct {
	actBytes []float64 // activation bytes one microbatch leaves on stage k
	// heldW[k] is what of it a microbatch keeps on stage k from its B to
	// its W when the schedule charges it (heldw.go), else nil.
	heldW []float64
}

// pricing turns FLOPs into time on the reference GPU.
type pricing struct {
	gpu hw.GPU  // the reference GPU, cluster.gpu
	eff float64 // its fraction of peak
	// fp8 runs the linear layers' GEMMs at the GPU's FP8 peak
	// (training.precision: fp8).
	fp8 bool
	// explicitEff says eff is training.efficiency, which prices every op
	// by its FLOPs at that fraction instead of by the operator roofline.
	explicitEff bool
	// unfusedAcc adds each weight gradient into the fp32 main gradient
	// with a kernel of its own (training.grad_accumulation: unfused).
	unfusedAcc bool
	// fp16 trains in fp16 with loss scaling (training.precision: fp16).
	fp16 bool
	// fp8Cache keeps DeepSeek-V3's low-precision activations
	// (training.fp8_activation_cache).
	fp8Cache bool
	// comp is the compression whose encoding of activations the ops pay
	// for (codec.go; codecOf).
	comp scenario.Compression
	// gemmScale multiplies the GEMM model's efficiency on gpu: a measured
	// calibration's (hw.Calibration.Scale), 1 without one.
	gemmScale float64
}

// time is the compute time of an op of total FLOPs of which linear are
// the transformer layers' linear GEMMs (workload.LayerOps.Linear). In
// bf16 or fp16 every FLOP goes at PeakFLOPS × eff. In fp8 the linear
// FLOPs go at PeakFP8 × eff and the rest (attention core, output head,
// MoE router) stays at the bf16 peak, as in Transformer Engine's
// fp8_autocast, which puts te.Linear's forward, dgrad and wgrad GEMMs in
// FP8 and leaves the attention core and the norms to bf16, and the
// DeepSeek-V3 report (arXiv 2412.19437, §3.3.1), which runs the three
// GEMMs of every linear in FP8 and keeps the embedding, output head, MoE
// gating, norms and attention in BF16 or FP32. The efficiency fraction
// is the preset's (or training.efficiency) at both peaks until a GEMM
// efficiency model by shape and dtype is wired in; whether FP8 GEMMs
// reach the same fraction of their peak as bf16 ones is not modelled.
func (p pricing) time(total, linear float64) units.Time {
	if !p.fp8 {
		return p.gpu.ComputeTime(total, p.eff)
	}
	return p.gpu.MixedComputeTime(max(0, total-linear), linear, p.eff)
}

func newCosts(s scenario.Scenario, gpu hw.GPU) (costs, error) {
	c := costs{pricing: pricing{gpu: gpu, fp8: s.Training.Precision == "fp8", gemmScale: s.Calibration.Scale(gpu.Name)},
		par: s.Parallel, real: !s.Model.IsSynthetic()}
	if !c.real {
		return c, nil
	}
	if s.Cluster.GPU == "" {
		return c, fmt.Errorf("cluster.gpu: a real model needs a GPU preset to time its FLOPs (or give model.synthetic op times)")
	}
	var err error
	if c.model, err = s.Model.Resolve(); err != nil {
		return c, fmt.Errorf("model: %w", err)
	}
	if err := c.model.ValidateSplit(s.Parallel.TP, s.Parallel.CP); err != nil {
		return c, fmt.Errorf("parallel.tp: %w", err)
	}
	c.eff = s.Training.Efficiency
	c.explicitEff = c.eff != 0
	c.unfusedAcc = s.Training.GradAccumulation == "unfused"
	c.fp16 = s.Training.Precision == "fp16"
	c.fp8Cache = s.Training.FP8ActivationCache
	if c.eff == 0 {
		c.eff = gpu.Efficiency
	}
	return c, nil
}

// price works out each model stage's layers, op times, blocking
// communication and activation memory.
func (tr *iteration) price() error {
	c := &tr.costs
	c.size(tr.stages)
	if !c.real {
		c.synthetic(tr.s.Model.Synthetic, tr.sch.Chunks)
		return nil
	}
	if err := c.splitLayers(); err != nil {
		return err
	}
	if c.par.Partition == "balanced" || c.par.Partition == "operators" {
		c.balance(tr.stageMult(), 0)
	}
	actElems := c.boundaryElements()
	c.comp = codecOf(tr.s.Compression, tr.fid)
	// Compressed activations shrink the pipeline messages and the tensor-,
	// context- and expert-parallel exchanges alike (package compression);
	// a subspace of rank k (Protocol Models) shrinks the pipeline messages
	// to k/h.
	p2p := tr.s.Compression.Activations
	if k := tr.s.Compression.Rank; k > 0 {
		p2p = float64(k) / float64(c.model.Hidden)
	}
	c.p2pBytes = compression.Bytes(units.Bytes(actElems*bytesPerElement/float64(c.par.TP)), p2p)
	tpAR, cpStep, etpAR := tr.commCosts(actElems * tr.s.Compression.Activations)
	if blockingP2P(c.par.P2P) && c.par.TP > 1 {
		// An all-gather is half a ring all-reduce of the gathered bytes.
		gathered := float64(c.p2pBytes) * float64(c.par.TP)
		c.p2pGather = tr.tpAllReduce(gathered/bytesPerElement) / 2
		if c.par.P2P == P2PBlockingList {
			c.p2pGather += c.listGatherCopy(gathered)
		}
	}
	act, err := c.activations(tr.s.Model.Eager(), operators.DType(tr.s.Training.Precision))
	if err != nil {
		return err
	}
	c.stageCosts(tpAR, cpStep, etpAR, act)
	if c.par.Partition == "operators" && c.real {
		c.splitOperators(tr.stageMult())
	}
	if tr.sch.ChargeHeldW {
		if err := c.chargeHeldW(act); err != nil {
			return err
		}
	}
	if tr.sdp, err = tr.subnetworks(act); err != nil {
		return err
	}
	return tr.route(act)
}

func (c *costs) size(stages int) {
	for i := range c.opTime {
		c.opTime[i] = make([]units.Time, stages)
	}
	for i := range c.commTime {
		c.commTime[i] = make([]units.Time, stages)
	}
	c.actBytes = make([]float64, stages)
	c.layers = make([]int, stages)
}

// synthetic spreads the scenario's op times of a whole stage over its
// chunks.
func (c *costs) synthetic(syn scenario.Synthetic, chunks int) {
	v := units.Time(chunks)
	for k := range c.layers {
		c.opTime[pipeline.F][k] = syn.Forward / v
		c.opTime[pipeline.B][k] = syn.BackwardInput / v
		c.opTime[pipeline.W][k] = syn.BackwardWeight / v
	}
	c.p2pBytes = 0
}

// splitLayers deals the model's layers out to the stages (stageLayers).
func (c *costs) splitLayers() error {
	layers, err := stageLayers(c.par, c.model.Layers, len(c.layers))
	if err != nil {
		return err
	}
	copy(c.layers, layers)
	return nil
}

// boundaryElements is the elements of one layer boundary of one
// microbatch: b·(s/cp)·h.
func (c *costs) boundaryElements() float64 {
	seq := float64(c.model.SeqLen) / float64(c.par.CP)
	return float64(c.par.MicroBatchSize) * seq * float64(c.model.Hidden)
}

// stageCosts prices every stage's ops from its FLOPs and its layers' TP
// all-reduces and ring-attention steps; a mixture of experts' all-to-alls
// and its experts' imbalance are the ops' tails (moe.go).
func (c *costs) stageCosts(tpAR, cpStep, etpAR units.Time, act activations) {
	m, p := c.model, c.par
	b, t, cp := p.MicroBatchSize, p.TP, p.CP
	r := workload.Recompute(p.Recompute)
	layer := workload.LayerFLOPs(m, b, t, cp, r)
	attn := workload.OpTime(layer.Attention.Forward, c.gpu, c.eff)
	for k := range c.layers {
		st := c.stage(k)
		f := workload.StageFLOPsOf(m, st, b, t, cp, r)
		lin := workload.StageLinearFLOPsOf(m, st, b, t, cp, r)
		c.opTime[pipeline.F][k] = c.time(f.Forward, lin.Forward)
		c.opTime[pipeline.B][k] = c.time(f.BackwardInput+f.Recompute, lin.BackwardInput+lin.Recompute)
		c.opTime[pipeline.W][k] = c.time(f.BackwardWeight, lin.BackwardWeight)
		l := units.Time(c.layers[k])
		// Megatron: two all-reduces (or reduce-scatter + all-gather with
		// sequence parallelism, the same bytes) per dense layer in each
		// pass; an MoE layer's MLP has its experts' instead (tpCollectives).
		tp := c.tpCollectives(st, tpAR, etpAR)
		fwd, bwd := c.overlapTP(tp, tp, l, lin, act)
		// Ring attention: c−1 K/V exchanges per layer, hidden behind the
		// attention compute when it is long enough (Liu et al. 2023).
		if cp > 1 {
			fwd += l * max(0, units.Time(cp-1)*cpStep-attn)
			bwd += l * max(0, 2*units.Time(cp-1)*cpStep-2*attn)
		}
		if r == workload.RecomputeFull {
			// Full recomputation re-runs the whole forward before the
			// backward pass, its collectives included (Korthikanti et al.
			// 2022, §5: the recomputed forward's all-reduces).
			bwd += fwd
		}
		c.commTime[0][k], c.commTime[1][k] = fwd, bwd
		c.actBytes[k] = act.of(m, st)
	}
	c.opTimes(act, c.explicitEff)
	if cf, cb := c.layerCodec(); cf+cb > 0 {
		for k, n := range c.layers {
			c.opTime[pipeline.F][k] += units.Time(n) * cf
			c.opTime[pipeline.B][k] += units.Time(n) * cb
		}
	}
	c.commKind = timeline.TPComm
	if p.TP == 1 && p.CP > 1 {
		c.commKind = timeline.CPComm
	}
}

// commCosts prices, with the α–β closed forms on the groups' bottleneck
// paths, one TP all-reduce of a layer's activations, one ring-attention
// K/V step and an MoE layer's expert tensor-parallel all-gather and
// reduce-scatter (etpCost).
func (tr *iteration) commCosts(actElems float64) (tpAR, cpStep, etpAR units.Time) {
	if tr.fid == ideal {
		return 0, 0, 0
	}
	p, m := tr.par, tr.model
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
		tpAR = tr.tpAllReduce(actElems)
	}
	if p.CP > 1 {
		a, bw := groupCost(tr.plan.Group(0, parallel.CP))
		kv := actElems * float64(m.KVHeadCount()*m.HeadDim()) / float64(m.Hidden) / float64(p.TP)
		cpStep = a + bw.TransferTime(units.Bytes(2*kv*bytesPerElement))
	}
	return tpAR, cpStep, tr.etpCost(actElems)
}

// tpAllReduce is a ring all-reduce of elems 16-bit elements on the first
// tensor-parallel group's bottleneck path; on a TPU slice, the torus
// all-reduce over the group's axes.
func (tr *iteration) tpAllReduce(elems float64) units.Time {
	if torusTimeOf != nil {
		if secs, ok := torusTimeOf(tr, collective.OpAllReduce, tr.plan.Group(0, parallel.TP), units.Bytes(elems*bytesPerElement)); ok {
			return units.Round(secs) // the torus all-reduce over the model axes (torus.go)
		}
	}
	a, bw, err := tr.paths.Bottleneck(tr.plan.Group(0, parallel.TP))
	if err != nil {
		return 0
	}
	return units.Round(collective.RingTime(tr.par.TP, units.Bytes(elems*bytesPerElement), a, bw))
}

// op is op o's compute and blocking communication on model stage k: a B
// that does not split the backward also computes the W.
func (c *costs) op(o pipeline.Op, k int, split bool) (compute, comm units.Time) {
	return opParts(o.Kind, [5]units.Time{c.opTime[pipeline.F][k], c.opTime[pipeline.B][k], c.opTime[pipeline.W][k],
		c.commTime[0][k], c.commTime[1][k]}, split)
}

// opParts picks an op of the given kind out of its stage's F, B and W
// compute and F and B communication.
func opParts(kind pipeline.Kind, t [5]units.Time, split bool) (compute, comm units.Time) {
	switch kind {
	case pipeline.F:
		return t[0], t[3]
	case pipeline.B:
		compute = t[1]
		if !split {
			compute += t[2]
		}
		return compute, t[4]
	}
	return t[2], 0
}

// atLength is stage k's F, B, W compute and F, B blocking communication
// for a microbatch of sequences of length seq, cached: the stage's FLOPs
// at that length (attention grows with its square, Hydraulis' point), and
// the tensor-parallel traffic in proportion to the length.
func (c *costs) atLength(k, seq int) [5]units.Time {
	if t, ok := c.seqCost[[2]int{k, seq}]; ok {
		return t
	}
	if c.seqCost == nil {
		c.seqCost = map[[2]int][5]units.Time{}
	}
	p := c.par
	m := c.model
	m.SeqLen = seq
	r := workload.Recompute(p.Recompute)
	f := workload.StageFLOPsOf(m, c.stage(k), p.MicroBatchSize, p.TP, p.CP, r)
	lin := workload.StageLinearFLOPsOf(m, c.stage(k), p.MicroBatchSize, p.TP, p.CP, r)
	ratio := float64(seq) / float64(c.model.SeqLen)
	cf, cb := c.layerCodec() // in proportion to the length, as the bytes
	l := float64(c.layers[k]) * ratio
	t := [5]units.Time{
		c.time(f.Forward, lin.Forward) + units.Round(l*cf.Seconds()),
		c.time(f.BackwardInput+f.Recompute, lin.BackwardInput+lin.Recompute) + units.Round(l*cb.Seconds()),
		c.time(f.BackwardWeight, lin.BackwardWeight),
		units.Round(c.commTime[0][k].Seconds() * ratio),
		units.Round(c.commTime[1][k].Seconds() * ratio),
	}
	c.seqCost[[2]int{k, seq}] = t
	return t
}

// stageParams is the parameters one GPU of model stage k holds: its
// shard of the stage's layers, and of the embedding or the head on the
// first and last stages.
func (c *costs) stageParams(k int) float64 {
	return workload.StageParamsOf(c.model, c.stage(k), c.par.TP, c.par.EP, c.par.Plan().ExpertTP())
}

// deviceParams is the parameters of a GPU of a pipeline device that holds
// the model stages ks (one per chunk).
func (c *costs) deviceParams(ks []int) float64 {
	var psi float64
	for _, k := range ks {
		psi += c.stageParams(k)
	}
	return psi
}

// gradBytes is the gradient one GPU of model stage k holds: 2 bytes per
// parameter of its shard (bf16 gradients, as ZeRO counts them).
func (c *costs) gradBytes(k int) units.Bytes {
	if !c.real {
		return 0
	}
	return units.Bytes(2 * c.stageParams(k))
}

// optimizerStep is the optimizer step of a GPU of a pipeline device that
// holds stages ks: memory-bound, stepBytes of HBM traffic per parameter of
// the shard it updates, streamed at the fraction of the HBM bandwidth the
// GPU's memory-bound kernels reach (gemm.Params.HBMEfficiency, as the
// operator pricer takes it; the datasheet bandwidth for a GPU without GEMM
// parameters).
func (c *costs) optimizerStep(ks []int) units.Time {
	shard := c.deviceParams(ks)
	if c.par.ZeRO >= 1 {
		shard /= float64(c.par.ShardGroup()) // within its ZeRO group (hzp.go)
	}
	return max(1, units.Round(stepBytes(c.fp16, c.unfusedAcc)*shard/c.streamBandwidth()))
}

// streamBandwidth is the HBM bandwidth, in bytes/s, that the GPU's
// memory-bound kernels reach: the datasheet figure times
// gemm.Params.HBMEfficiency, as the operator pricer takes it (the
// datasheet figure for a GPU without GEMM parameters).
func (c *costs) streamBandwidth() float64 {
	bw := float64(c.gpu.HBMBandwidth)
	if p, err := gemm.Lookup(c.gpu.Name); err == nil {
		bw *= p.HBMEfficiency
	}
	return bw
}

// listGatherCopy is the extra copy of parallel.p2p: blocking_list: the
// gathered bytes read from the collective's flat buffer and written into
// the t output views, 2·gathered/B at the streaming bandwidth B, plus one
// launch per view (PyTorch's ProcessGroupNCCL::allgather copies each
// rank's slice with its own copy_). An independent check:
// TestP2PBlocking.
func (c *costs) listGatherCopy(gathered float64) units.Time {
	var launch float64
	if gm, err := gemm.For(c.gpu); err == nil {
		launch = gm.Launch()
	}
	return units.Round(2*gathered/c.streamBandwidth() + float64(c.par.TP)*launch)
}

// stepBytes is the HBM traffic per parameter of Megatron-LM's
// mixed-precision optimizer step (megatron/optimizer/optimizer.py,
// Float16OptimizerWithFloat16Params.step, and clip_grads.py, at aed2f75e,
// 2021, and since):
//
//	28  Adam (apex FusedAdam): reads the fp32 weight, gradient and both
//	    moments, writes the weight and the moments
//	 4  the gradient norm for clipping (multi_tensor_l2norm reads each
//	    fp32 gradient; the rescale, when the norm exceeds the limit, is
//	    not counted)
//	 6  the fp32 master weights copied into the 16-bit model weights
//	 8  fp16 only: unscaling by the loss scale with the inf/NaN check
//	    (torch._amp_foreach_non_finite_check_and_unscale_ reads and writes
//	    each fp32 gradient)
//	 6  fp16 gradients accumulated in 16 bits (unfused): each copied into
//	    a new fp32 gradient (model_param.grad.float())
//	 4  otherwise: the fp32 main-gradient buffer zeroed for the next
//	    step (zero_grad_buffer)
//
// so 42 bytes in bf16, 50 in fp16 with fused accumulation and 52 in fp16
// with unfused accumulation (Megatron-LM 2021).
func stepBytes(fp16, unfused bool) float64 {
	b := 28.0 + 4 + 6
	if fp16 {
		b += 8
	}
	if fp16 && unfused {
		return b + 6
	}
	return b + 4
}
