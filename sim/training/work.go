package training

import (
	"fmt"
	"math"
	"slices"

	"paraplay/sim/budget"
	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// Work bounds a training run (Simulate; a long run is LongWork's). One iteration on G GPUs of a plan
// dp·pp·(tp·cp) whose pipeline schedule gives a device O ops (F, B and W
// of m microbatches on its v chunks: 2mv, or 3mv for split backward), its
// last backward of each chunk cut into b ≤ 8 gradient buckets (one per 25
// MB of a stage's bf16 gradient), lays out:
//
//	spans  ≤ G·(c·(O + (b−1)·v) + 1 + k·v·b)
//
// with c = 2 when ops carry blocking tp/cp/ep communication (a second
// span), 1 for the optimizer step, k = 1 when compression adds a span per
// collective, and codecSpans for compressed parameters. Detailed fidelity sends every message:
//
//	transfers ≤ (G/pp)·(pp·v − 1)·2m·[pp·v > 1]               pipeline sends
//	          + pp·v·tp·b·ring(dp·cp)                          gradient sums
//	            (parallel.cyclic: tp·2(dp−1), the relay)
//	          + pp·(tp·cp)·dp(g−1)   (ZeRO-1/2)  or  pp·2mv·(tp·cp)·dp(g−1)  (ZeRO-3)
//
// with g = parallel.zero_group (dp when 0); parallel.zero_layers adds
// ZeRO-1/2's gathers after the step to ZeRO-3's (osdp.go); a hierarchical ZeRO (g < dp)
// sums gradients by (dp/g)·ring(g·cp) reduce-scatter messages and g·cp
// all-reduces of ring(dp/g) instead (hzp.go).
// ring(n) being collective.Messages of the ring all-reduce (2(n−1)n) or
// reduce-scatter (n(n−1)); both ring terms double on a cluster of several
// nodes, where a group across nodes runs on channels and each GPU sends
// two messages a step, over NVLink and through its NIC (ringConfig), and on
// a TPU slice, whose hosts are such nodes and whose torus collectives send
// at most two messages a chip and step, one each way along an axis.
// Engine events: 4 per group op (G/(tp·cp) of
// them per span of a GPU) and per closed form, budget.EventsPerItem per
// transfer. An imperfect
// run (several iterations, faults, stragglers, variable lengths) plays up
// to I·(1 + stops) iterations, at most 4·MaxIterations, and as many
// predictions again.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	w, err := iterationWork(s)
	if err != nil {
		return budget.Work{Refused: err}
	}
	if !imperfect(s) {
		return w
	}
	it := float64(max(s.Iterations, 1))
	stops := 0.0
	for _, f := range s.Faults {
		if f.Kind == scenario.FailStop || f.Kind == scenario.Preempt {
			stops++
		}
	}
	plays := min(it*(1+stops), 4*scenario.MaxIterations+1)
	if pol := s.Recovery.Policy; pol == scenario.PolicyElastic || pol == scenario.PolicyResiHP {
		// A stop aborts one iteration and the step is redone at once:
		// nothing rolls back to a checkpoint.
		plays = min(it+stops, 4*scenario.MaxIterations+1)
	}
	predictions := stops + 1
	if s.Data.SeqDist != "" && s.Data.SeqDist != "fixed" {
		predictions = plays
	}
	why := fmt.Sprintf("%g iterations", it)
	out := budget.Work{Spans: w.Spans.Times(plays, why), Transfers: w.Transfers.Times(plays, why),
		Events: w.Events.Times(plays+predictions, why), TraceBytes: w.TraceBytes.Times(plays, why),
		Memory: w.Memory.Times(plays+predictions, why)}
	// The joined timeline copies every play's spans and transfers, growing
	// by append (up to twice its final size): llama3-8b dp 4 × tp 2 × pp 2
	// over 5 iterations allocated 2.00e7 B against the 1.94e7 of the
	// plays and predictions alone.
	out.Memory.N += 2 * plays * (budget.SpanBytes*w.Spans.N + budget.TransferBytes*w.Transfers.N)
	// The joined timeline's fault states: a few per fault and GPU.
	out.Spans.N += 4 * float64(len(s.Faults)) * float64(s.NumGPUs())
	if s.Recovery.Policy == scenario.PolicyResiHP && len(s.Faults) > 0 {
		resihpWork(s, w, stops, &out)
	}
	return out
}

// resihpWork adds what the resihp policy's re-plans cost (resihp.go): a
// re-partition after a flagged step at most, a regroup per stop, and a
// prediction after each (counted with the iteration's work w). A GPU
// takes the slices of one old stage and tensor rank from one peer
// (statexfer.go): in a regroup from at most pp·v·(tp+1) peers; in a
// re-partition, which keeps every GPU's tensor rank and what it held,
// from at most one peer per other device stage, pp−1, where pp is the
// deepest pipeline the job can run (a regroup keeps tp·pp at most the
// job's). A regroup's search simulates at most maxRegroupSims layouts at
// analytic fidelity, none of more work than an analytic iteration of s
// (its model-parallel group does not grow), and the estimator and the
// layouts' states allocate about one more.
func resihpWork(s scenario.Scenario, w budget.Work, stops float64, out *budget.Work) {
	p, g := s.Parallel, float64(s.NumGPUs())
	// A re-partition can follow any step but the last that the detector
	// flags (a fail-slow, or straggler noise above its threshold), a
	// regroup any stop.
	parts, deepest := float64(max(s.Iterations-1, 0)), p.PP
	if stops > 0 {
		deepest = p.PP * p.TP
	}
	replans := stops + parts
	msgs := budget.Count{N: stops*g*min(g-1, float64(p.PP*max(1, p.VirtualStages)*(p.TP+1))) + parts*g*min(g-1, float64(deepest-1)),
		Why: "the re-plans' state transfers"}
	xfer := budget.Of(budget.Items{Transfers: msgs, Spans: budget.Count{N: replans * g}, GPUs: s.NumGPUs(), Graphs: replans})
	a := s
	a.Fidelity = "analytic"
	if aw, err := iterationWork(a); err == nil {
		w = aw
	}
	search := budget.Work{Events: w.Events.Times(stops*maxRegroupSims, "a regroup's layouts"),
		Memory: w.Memory.Times(stops*maxRegroupSims+replans, "the re-plans")}
	*out = out.Plus(xfer).Plus(search)
}

// iterationWork bounds one iteration of s (see Work) and refuses one whose
// costs would overflow the clock.
func iterationWork(s scenario.Scenario) (budget.Work, error) {
	w, _, err := iterationWorkOf(s)
	return w, err
}

// iterationWorkOf is iterationWork, and whether Simulate mirrors the
// replicas of s.
func iterationWorkOf(s scenario.Scenario) (budget.Work, bool, error) {
	p := s.Parallel
	sch, err := pipeline.New(p.Schedule, p.PP, p.Microbatches, p.ChunksArg())
	if err != nil {
		return budget.Work{}, false, &scenario.FieldError{Field: "parallel.schedule", Msg: err.Error()}
	}
	if !s.Model.IsSynthetic() && s.Cluster.GPU == "" {
		// Simulate would say so after building the run: say it before.
		return budget.Work{}, false, &scenario.FieldError{Field: "cluster.gpu", Msg: "is empty; a real model needs a GPU preset to time its FLOPs (or give model.synthetic op times)"}
	}
	if err := clockFits(s); err != nil {
		return budget.Work{}, false, err
	}
	g, dp, pp, tp, cp := float64(s.NumGPUs()), float64(p.DP), float64(p.PP), float64(p.TP), float64(p.CP)
	m, v := float64(p.Microbatches), float64(sch.Chunks)
	ops := 0.0
	for _, order := range sch.Order {
		ops = max(ops, float64(len(order)))
	}
	real, fid := !s.Model.IsSynthetic(), fidelityOf(s)
	buckets := 1.0
	if real && fid != ideal && dp*cp > 1 && !p.Cyclic { // cyclic relays the whole gradient
		buckets = bucketBound(s, pp*v)
	}
	c, k := spansPerOp(p), codecGroups(s, dp)
	spansN := g * (c*(ops+(buckets-1)*v) + 1 + k*v*buckets + codecSpans(s, ops))
	spans := budget.Count{N: spansN, Why: fmt.Sprintf("%g GPUs × %g ops (%g parallel.microbatches × %g chunks)", g, ops, m, v),
		Field: "parallel.microbatches", Fix: "lower parallel.microbatches or use fewer GPUs"}
	var tr budget.Count
	mp := tp * cp
	if fid == detailed || p.Cyclic && real && fid != ideal {
		tr = detailedTransfers(s, v, m, buckets)
	}
	// A mirrored run (mirror.go) simulates one replica: sim = 1/dp of
	// the replicas' ops, while every pipeline message is still recorded.
	sim, graphs := 1.0, 1.0
	mirror, built := mirrorCheck(s)
	if mirror {
		sim = 1 / dp
	}
	if built {
		graphs = 2 // the check built the run's topology once more
	}
	sends, closedForms := 0.0, 0.0
	if fid == analytic {
		// Each microbatch crosses each of the pp·v − 1 boundaries
		// between model chunks twice (forward and backward).
		sends = dp * max(pp*v-1, 0) * 2 * m
		closedForms = analyticCollectives(s, v, m, buckets)
	}
	groupOps := g / mp * (ops + buckets*v + 1) * sim
	if real && fid != ideal && (sch.Name == "dualpipev" || s.Model.MoE.Overlap == overlapTwoMicrobatch) && p.EP > 1 {
		// drawHidden's all-to-alls: one per F and B of a device (2m·v of
		// them) and expert-parallel group on its GPUs.
		closedForms += pp * 2 * m * v * dp * tp * cp / float64(p.EP)
	}
	if real && fid != ideal && dp > 1 && p.ZeRO == 3 {
		// ZeRO-3's prefetches: per gather (pp·2mv·mp of them) a join per
		// simulated replica, holding a copy of its op's predecessors,
		// and the gather itself: dp·sim + 1 ≤ 2·dp·sim ops (dp·sim ≥ 1).
		// (4·dp·sim made the bound 10.4× the events of an analytic,
		// mirrored llama3-8b dp 2 × tp 4 × pp 2 run.)
		closedForms += 2 * pp * 2 * m * v * mp * dp * sim
	}
	ev := budget.Count{N: 4*(groupOps+closedForms+sends*sim+k*g*v*buckets+g*codecSpans(s, ops)) + budget.EventsPerItem*tr.N, Why: spans.Why, Field: spans.Field, Fix: spans.Fix}
	closedForms += sends
	if tr.N > groupOps+closedForms {
		ev.Why, ev.Field, ev.Fix = tr.Why, tr.Field, tr.Fix
	}
	w := budget.Of(budget.Items{Spans: spans, Transfers: tr, Ops: groupOps + closedForms, Events: ev, GPUs: s.NumGPUs(), Ports: budget.MeshPorts(&s), Graphs: graphs})
	if real {
		w.Memory.N += modelWorkBytes(s)
	}
	return w, mirror, nil
}

// spansPerOp is the spans an op leaves on each of its GPUs: its compute,
// its blocking communication, the experts' tail.
func spansPerOp(p scenario.Parallel) float64 {
	c := 1.0
	if p.TP*p.CP > 1 {
		c++
	}
	if p.EP > 1 {
		c++
	}
	return c
}

// modelWorkBytes bounds what a real model's pricing allocates beyond the
// graph: FlashAttention's operator lists (twice over under tensor or
// expert parallelism), a mixture's routing. Looking the preset up
// allocates nothing: workload.LookupModel copies a Model out of a catalog
// built once per process (it rebuilt the catalog, 8.4 KB, on every call
// until the planner's profile found it, and a run looked it up several
// times: 192 KiB was charged for it then).
func modelWorkBytes(s scenario.Scenario) float64 {
	var n float64
	if !s.Model.Eager() {
		n += opListBytes
		if s.Parallel.TP > 1 || s.Parallel.EP > 1 {
			n += opListBytes
		}
	}
	return n + moeWorkBytes(s)
}

// analyticCollectives bounds the closed-form collectives of an analytic
// iteration of s with v chunks, m microbatches and b buckets: per chunk
// and tensor-parallel rank a gradient sum per bucket, and per op and
// model-parallel rank a ZeRO gather; hierarchical ZeRO (hzp.go) sums a
// bucket in dp/g + g·cp collectives and gathers in each of the dp/g
// groups.
func analyticCollectives(s scenario.Scenario, v, m, b float64) float64 {
	p := s.Parallel
	dp, pp, tp, cp := float64(p.DP), float64(p.PP), float64(p.TP), float64(p.CP)
	// Without data or context parallelism there is no gradient sum, and
	// without ZeRO on several replicas no gather.
	n := 0.0
	if dp*cp > 1 {
		n += pp * v * tp * b
	}
	if p.ZeRO > 0 && dp > 1 {
		n += pp * 2 * m * v * tp * cp
	}
	if hierarchical(p) {
		sg := float64(p.ShardGroup())
		n = pp*v*tp*b*(dp/sg+sg*cp) + pp*2*m*v*tp*cp*dp/sg
	}
	if p.ZeROLayers > 0 {
		n += pp * tp * cp * dp / float64(p.ShardGroup()) // osdp.go: the whole layers' gathers after the step
	}
	if f := SDPOf(&s).Fraction; !s.Model.IsSynthetic() && f != 0 {
		_, n = sdpWork(p.DP, f, b, 1)
		n += 2 * m
	}
	return n
}

// opListBytes bounds what building the operator lists of FlashAttention's
// activations allocates (activations.go: a layer, the embedding and the
// head), twice over under tensor or expert parallelism. Measured with
// runtime.MemStats.TotalAlloc over the three lists of a configuration not
// built before: 744–755 B for gpt3-1.3b, llama3-8b, mixtral-8x7b and
// deepseek-v3 at tensor parallelism 1 and 8 (46–110 KB when the lists
// were first measured, before their operators were shared).
const opListBytes = 4 << 10

// bucketBound bounds the gradient buckets of the largest of stages model
// stages: its share of the layers (≈ 16·h² parameters each) with the
// embedding or the head, in bf16, one bucket per 25 MB, plus one.
func bucketBound(s scenario.Scenario, stages float64) float64 {
	mdl, err := s.Model.Resolve()
	if err != nil || mdl.IsMoE() {
		return 8 // the cap; a mixture's layers also hold its experts, which 16h² leaves out
	}
	layers := math.Ceil(float64(mdl.Layers) / stages)
	if split, err := stageLayers(s.Parallel, mdl.Layers, int(stages)); err == nil {
		layers = float64(slices.Max(split)) // an uneven split's largest stage
	}
	perLayer := float64(mdl.Hidden) * float64(mdl.Hidden) * 16
	grads := 2 * (layers*perLayer + float64(mdl.Vocab)*float64(mdl.Hidden)) / float64(s.Parallel.TP)
	return min(max(math.Ceil(grads/ddpBucket)+1, 1), 8)
}

// detailedTransfers bounds the messages of a detailed iteration of s with
// v chunks, m microbatches and b buckets (the formula of Work).
func detailedTransfers(s scenario.Scenario, v, m, b float64) budget.Count {
	p := s.Parallel
	g, dp, pp, tp, cp := float64(s.NumGPUs()), float64(p.DP), float64(p.PP), float64(p.TP), float64(p.CP)
	real, mp := !s.Model.IsSynthetic(), tp*cp
	var p2p float64
	if pp*v > 1 && real {
		p2p = g / pp * (pp*v - 1) * 2 * m
	}
	op := "all_reduce"
	if p.ZeRO >= 1 {
		op = "reduce_scatter"
	}
	channels := 1.0
	if s.Cluster.Nodes > 1 || s.Cluster.Topology != "" {
		channels = 2 // a TPU slice's hosts are nodes to a ring over chip ids; a torus schedule sends at most two messages a chip and step
	}
	grad := 0.0
	sg := float64(p.ShardGroup())
	if real && dp*cp > 1 {
		grad = channels * pp * v * tp * b * collective.Messages(op, "ring", collective.Config{Ranks: p.DP * p.CP})
	}
	if real && hierarchical(p) {
		// hzp.go: a ring reduce-scatter within each of the dp/g groups of
		// n = g·cp, n(n−1) messages, then n ring all-reduces across the
		// R = dp/g groups, 2R(R−1) each.
		n, R := sg*cp, dp/sg
		grad = channels * pp * v * tp * b * (R*n*(n-1) + n*2*R*(R-1))
	}
	if f := SDPOf(&s).Fraction; real && f != 0 {
		grad, _ = sdpWork(p.DP, f, b, channels)
	}
	if real && p.Cyclic { // the relay: 2(dp−1) messages per tp rank
		grad = tp * 2 * (dp - 1)
	}
	zero := 0.0
	switch {
	case real && dp > 1 && (p.ZeRO == 1 || p.ZeRO == 2):
		zero = channels * pp * mp * dp * (sg - 1)
	case real && dp > 1 && p.ZeRO == 3:
		zero = channels * pp * 2 * m * v * mp * dp * (sg - 1)
		if p.ZeROLayers > 0 { // osdp.go: and the whole layers' after the step
			zero += channels * pp * mp * dp * (sg - 1)
		}
	}
	fix := "use fidelity: analytic (or auto, analytic above 512 GPUs), or lower parallel.microbatches"
	if s.Fidelity == "auto" {
		fix = "use fidelity: analytic, or lower parallel.microbatches"
	}
	return budget.Count{N: p2p + grad + zero, Field: "fidelity",
		Why: fmt.Sprintf("%g GPUs, dp %g, %g parallel.microbatches, every message (fidelity: %s)", g, dp, m, s.Fidelity), Fix: fix}
}

// maxIteration is the longest iteration the clock may hold: a sixteenth
// of units.MaxTime (about 18 years), so that the iterations of a run and
// their offsets add up without overflow.
const maxIteration = float64(1<<63-1) / 16 / 1e9

// maxBytes is the most bytes a memory counter may reach: a sixteenth of
// units.Bytes' range (512 PiB), for the same reason.
const maxBytes = float64(1<<63-1) / 16

// clockFits refuses a scenario whose costs would overflow the clock once
// they become times: the compute of one replica's iteration, all its ops
// one after another on its tp·cp GPUs,
//
//	FLOPs(m · micro_batch_size sequences) / (tp·cp · peak · efficiency)
//
// bounds the critical path's compute; it must stay under maxIteration.
// Likewise a GPU's activations, at most every microbatch's on every layer,
// must stay under maxBytes.
func clockFits(s scenario.Scenario) error {
	if s.Model.IsSynthetic() || s.Cluster.GPU == "" {
		return nil
	}
	mdl, err := s.Model.Resolve()
	if err != nil {
		return nil // Validate reports it
	}
	peak, eff := math.Inf(1), s.Training.Efficiency
	for _, name := range append([]string{s.Cluster.GPU}, s.Cluster.NodeGPUs...) {
		gpu, err := hw.LookupGPU(name)
		if err != nil {
			return nil
		}
		peak = min(peak, gpu.PeakFLOPS)
		if s.Training.Efficiency == 0 {
			eff = gpu.Efficiency
		}
	}
	p := s.Parallel
	f := workload.IterationFLOPs(mdl, p.Microbatches*p.MicroBatchSize, workload.Recompute(p.Recompute))
	flops := f.Forward + f.BackwardInput + f.BackwardWeight + f.Recompute
	secs := flops / (float64(p.TP*p.CP) * peak * eff)
	if mdl.ValidateSplit(p.TP, p.CP) == nil {
		// Activations are counted in units.Bytes: all microbatches' on
		// every layer must fit in a sixteenth of its range.
		act := workload.ActivationBytesPerLayerCP(mdl, p.MicroBatchSize, p.TP, p.CP, p.SequenceParallel, workload.Recompute(p.Recompute)) *
			float64(mdl.Layers) * float64(p.Microbatches)
		if act > maxBytes {
			return &scenario.FieldError{Field: "model", Msg: fmt.Sprintf("one GPU's activations could reach %.2g bytes (%d layers × %d parallel.microbatches); the byte counters hold %.2g: use a smaller model shape, a shorter model.seq_len or fewer parallel.microbatches",
				act, mdl.Layers, p.Microbatches, maxBytes)}
		}
	}
	if secs <= maxIteration && !math.IsNaN(secs) {
		return nil
	}
	msg := fmt.Sprintf("one replica's iteration would compute for %.2g s (%.3g FLOPs at %.3g FLOP/s × efficiency %g on tp·cp %d GPUs); the clock holds %.2g s (18 years)",
		secs, flops, peak, eff, p.TP*p.CP, maxIteration)
	if s.Training.Efficiency > 0 && s.Training.Efficiency < 0.01 {
		return &scenario.FieldError{Field: "training.efficiency", Msg: "is " + fmt.Sprint(s.Training.Efficiency) + ": " + msg + "; raise training.efficiency"}
	}
	return &scenario.FieldError{Field: "model", Msg: msg + "; use a smaller model shape, fewer parallel.microbatches or more tp"}
}

// codecGroups bounds the codec spans a GPU makes per gradient bucket: one
// per collective it joins (dataparallel.go, compress), which subnetwork
// data parallelism makes 1 + dp a bucket (sdpWork).
func codecGroups(s scenario.Scenario, dp float64) float64 {
	switch {
	case !s.Compression.Enabled():
		return 0
	case SDPOf(&s).Fraction != 0 && !s.Model.IsSynthetic():
		return 1 + dp
	}
	return 1
}

// codecSpans bounds the compression spans per GPU that compressed ZeRO
// gathers add (dataparallel.go): one encoding per ZeRO-1/2 gather or per
// ZeRO-3 op.
func codecSpans(s scenario.Scenario, ops float64) float64 {
	if c := s.Compression; c.Parameters < 1 && c.TimePerMiB > 0 {
		return max(1, ops*float64(s.Parallel.ZeRO/3))
	}
	return 0
}
