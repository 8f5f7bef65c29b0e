package training

import (
	"paraplay/sim/collective"
	"paraplay/sim/moe"
	"paraplay/sim/operators"
	"paraplay/sim/parallel"
	"paraplay/sim/pipeline"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// A mixture of experts in training. Its MoE layers' op lists (package
// operators) price each layer at balanced routing; this file adds what the
// router changes. Per step and layer (package moe: seeded by the scenario,
// the step and the layer), the router gives each expert its share of the
// token copies; each GPU of an expert-parallel group then computes the
// rows of its local experts (their grouped GEMMs priced by the GEMM model
// at those rows) and keeps their activations, and the dispatch and
// combine all-to-alls move each GPU's copies (exchange, moe_exchange.go).
// A layer's combine waits for the group's slowest GPU, so the GPUs of a
// group stay in lockstep: each op lasts, on every GPU of the group, as
// long as the slowest GPU's experts of each of its layers, summed, plus
// the all-to-alls; a GPU that finishes its experts sooner waits inside the
// all-to-all, which the op's tail shows as expert-parallel communication
// (timeline.EPComm) after its compute.

// routed is a mixture of experts' routing in one iteration.
type routed struct {
	// varies: the GPUs of a group differ (a skewed router or EPLB), so
	// the replicas cannot be mirrored.
	varies bool
	// expert[kind][k][j] is model stage k's expert GEMMs on the GPUs of
	// expert-parallel index j in op kind F, B (with its recomputation) or
	// W; sync[kind][k] the group's, the slowest index's of each layer
	// summed; bal[kind][k] the balanced experts' that opTime holds.
	expert    [3][][]units.Time
	sync, bal [3][]units.Time
	// a2a[pass][k] is stage k's all-to-alls in F (0) and B (1).
	a2a [2][]units.Time
	// act[k][j] is the activation bytes index j keeps per microbatch
	// beyond the balanced ones.
	act [][]float64
	// stats are the routing's figures for the summary (moe_record.go).
	stats moeStats
	// hide[d][o] is the compute of the other half of DualPipeV's
	// overlapped pair that op o of device d is in, under which its
	// all-to-alls run (moe_overlap.go); nil for other schedules.
	hide []map[pipeline.Op]half
	// bytes[k] is what a GPU of model stage k sends in one pass's
	// all-to-alls (the dispatches' and combines' copies).
	bytes []float64
	// extra[kind][k] is the compute the two-microbatch overlap's split
	// adds to stage k's ops of kind F, B and W (moe_split.go); nil
	// without it.
	extra [3][]units.Time
}

// stage is model stage k's share of the model's layers.
func (c *costs) stage(k int) workload.Stage {
	from := 0
	for _, n := range c.layers[:k] {
		from += n
	}
	return workload.Stage{From: from, Layers: c.layers[k], First: k == 0, Last: k == len(c.layers)-1}
}

// tpCollectives is stage st's tensor-parallel communication in one pass:
// a dense layer's two all-reduces (Megatron; or reduce-scatter and
// all-gather under sequence parallelism, the same bytes); an MoE layer's
// attention one, its experts' gather and scatter over the expert
// tensor-parallel GPUs (etpAR) and, with shared experts, their all-reduce
// (they split over tp as a dense MLP does). A last stage's multi-token
// prediction modules are MoE layers too.
func (c *costs) tpCollectives(st workload.Stage, tpAR, etpAR units.Time) units.Time {
	nm := workload.MoELayersIn(c.model, st)
	if st.Last {
		nm += c.model.MTP
	}
	nd := units.Time(st.Layers - workload.MoELayersIn(c.model, st))
	moeLayer := tpAR + etpAR
	if c.model.MoE.SharedExperts > 0 {
		moeLayer += tpAR
	}
	return 2*nd*tpAR + units.Time(nm)*moeLayer
}

// etpCost is an MoE layer's all-gather of the routed rows before the
// experts and reduce-scatter after, over the etp GPUs that split each
// expert, at balanced routing: together a ring all-reduce's time of the
// gathered rows, etp·(b·s/(cp·tp))·top_k token copies of h elements
// (actElems is b·(s/cp)·h), on the tensor-parallel group's bottleneck.
func (tr *iteration) etpCost(actElems float64) units.Time {
	m, p := tr.model, tr.par
	etp := p.Plan().ExpertTP()
	if !m.IsMoE() || etp <= 1 {
		return 0
	}
	a, bw, err := tr.paths.Bottleneck(tr.plan.Group(0, parallel.TP)[:etp])
	if err != nil {
		return 0
	}
	gathered := float64(etp) * actElems / float64(p.TP) * float64(m.MoE.TopK) * bytesPerElement
	return units.Round(collective.RingTime(etp, units.Bytes(gathered), a, bw))
}

// expertPricer prices a GPU's local experts of one MoE layer at the given
// rows each: F, B (with recomputation) and W, and the bytes they keep. It
// uses the operator roofline when the stage prices run on it, else the
// FLOPs at the fixed efficiency.
func (tr *iteration) expertPricer(cfg operators.Config) func(rows []float64) ([3]units.Time, float64, error) {
	pr, ok := opPricer(&tr.costs)
	if tr.explicitEff {
		ok = false
	}
	return func(rows []float64) ([3]units.Time, float64, error) {
		var t [3]units.Time
		l, err := operators.Experts(cfg, rows)
		if err != nil {
			return t, 0, err
		}
		if ok {
			ph, err := pr.ByPhase(l)
			if err != nil {
				return t, 0, err
			}
			t = [3]units.Time{ph.Forward, ph.BackwardInput + ph.Recompute, ph.BackwardWeight}
		} else {
			var f [3]float64
			for _, op := range l {
				switch op.Phase {
				case operators.Forward:
					f[0] += op.FLOPs
				case operators.BackwardInput, operators.Recompute:
					f[1] += op.FLOPs
				case operators.BackwardWeight:
					f[2] += op.FLOPs
				}
			}
			for i := range t {
				t[i] = tr.time(f[i], f[i])
			}
		}
		return t, l.Totals().Saved(), nil
	}
}

// expertLayout is where the experts of an expert-parallel group live.
func (tr *iteration) expertLayout() moe.Layout {
	x, p := tr.model.MoE, tr.par
	l := moe.Layout{Experts: x.Experts, TopK: x.TopK, EP: p.EP}
	if x.Router == workload.RouterGroupLimited {
		l.Groups, l.TopGroups = x.Groups, x.TopGroups
	}
	g := tr.plan.ExpertGroup(0)
	node := tr.topo.GPUs[g[0]].Node
	for _, gpu := range g {
		if tr.topo.GPUs[gpu].Node == node {
			l.PerNode++
		}
	}
	return l
}

// route routes every MoE layer of the iteration and prices what each
// expert-parallel index computes, keeps and sends (see above).
func (tr *iteration) route(act activations) error {
	m, p := tr.model, tr.par
	if !tr.real || !m.IsMoE() {
		return nil
	}
	stages := len(tr.layers)
	x := &routed{act: make([][]float64, stages), bytes: make([]float64, stages)}
	for kind := range x.expert {
		x.expert[kind] = make([][]units.Time, stages)
		x.sync[kind], x.bal[kind] = make([]units.Time, stages), make([]units.Time, stages)
		for k := range x.expert[kind] {
			x.expert[kind][k] = make([]units.Time, p.EP)
		}
	}
	for pass := range x.a2a {
		x.a2a[pass] = make([]units.Time, stages)
	}
	price := tr.expertPricer(act.cfg)
	balRows := operators.BalancedRows(act.cfg)
	bal, balSaved, err := price(balRows)
	if err != nil {
		return err
	}
	r := tr.s.Model.MoE.Routing
	skewed := r.Skewed() || r.Redundant > 0
	x.varies = skewed && p.EP > 1
	lay, xch, sp := tr.expertLayout(), tr.exchange(), tr.newSplitter(&act)
	if sp != nil {
		for kind := range x.extra {
			x.extra[kind] = make([]units.Time, stages)
		}
	}
	tokens := float64(p.MicroBatchSize) * float64(m.SeqLen) / float64(p.CP*p.TP)
	step := 0
	if tr.it != nil {
		step = tr.it.step
	}
	x.stats.start(p.EP, lay)
	a2a := units.Time(-1)
	for k := range tr.layers {
		x.act[k] = make([]float64, p.EP)
		for _, layer := range tr.moeLayersOf(k) {
			l := balancedLayer(lay, tokens)
			if skewed || r.CapacityFactor > 0 {
				l = moe.Route(lay, r, tr.s.Seed, step, layer, tokens)
			}
			x.stats.add(l)
			alike := !skewed && r.CapacityFactor <= 0 // every layer is routed alike
			if sp == nil && (a2a < 0 || !alike) {
				a2a = xch.time(l, lay)
			}
			x.bytes[k] += tokens * float64(m.MoE.TopK) * (xch.dispatch + xch.perCopy)
			excess, err := x.layer(k, l, skewed, price, bal, balSaved, p.Plan().ExpertTP())
			if err != nil {
				return err
			}
			if sp != nil {
				a2a = sp.layer(k, l, lay, xch, alike, excess, &x.extra)
			}
			x.a2a[0][k] += a2a
			x.a2a[1][k] += a2a
		}
		if p.Recompute == string(workload.RecomputeFull) {
			x.a2a[1][k] += x.a2a[0][k] // the recomputed forward's all-to-alls
		}
	}
	tr.overlapPairs(x)
	if sp != nil {
		sp.apply(tr, x)
	}
	tr.experts = x
	return nil
}

// layer adds one MoE layer of stage k routed as l: each index's experts at
// their rows (etp times the copies each, after the expert tensor-parallel
// all-gather), the slowest index's, and the balanced layer's. It returns
// how much longer the slowest index's experts take than the balanced ones
// in F, B and W.
func (x *routed) layer(k int, l moe.Layer, skewed bool, price func([]float64) ([3]units.Time, float64, error), bal [3]units.Time, balSaved float64, etp int) ([3]units.Time, error) {
	var worst [3]units.Time
	for j := range x.expert[0][k] {
		e, saved := bal, balSaved
		if skewed || l.Dropped > 0 {
			rows := make([]float64, len(l.Slots[j]))
			for i, c := range l.Slots[j] {
				rows[i] = c * float64(etp)
			}
			var err error
			if e, saved, err = price(rows); err != nil {
				return worst, err
			}
		}
		for kind := range e {
			x.expert[kind][k][j] += e[kind]
			worst[kind] = max(worst[kind], e[kind])
		}
		x.act[k][j] += saved - balSaved
	}
	for kind := range worst {
		x.sync[kind][k] += worst[kind]
		x.bal[kind][k] += bal[kind]
		worst[kind] -= bal[kind]
	}
	return worst, nil
}

// balancedLayer is a layer routed evenly: every GPU computes its tokens'
// top_k copies, spread evenly over its experts.
func balancedLayer(lay moe.Layout, tokens float64) moe.Layer {
	l := moe.Layer{Copies: float64(lay.EP) * tokens * float64(lay.TopK), Load: make([]float64, lay.EP), Slots: make([][]float64, lay.EP)}
	for j := range l.Load {
		l.Load[j] = tokens * float64(lay.TopK)
	}
	l.Share = make([]float64, lay.Experts)
	for e := range l.Share {
		l.Share[e] = 1 / float64(lay.Experts)
	}
	l.NodesPerToken = moe.NodesPerToken(lay, l.Share)
	return l
}

// moeLayersOf lists model stage k's MoE layers by their index in the
// model, a last stage's multi-token prediction modules after the layers.
func (tr *iteration) moeLayersOf(k int) []int {
	st := tr.stage(k)
	var out []int
	for i := st.From; i < st.From+st.Layers; i++ {
		if tr.model.IsMoELayer(i) {
			out = append(out, i)
		}
	}
	if st.Last {
		for i := range tr.model.MTP {
			out = append(out, tr.model.Layers+i)
		}
	}
	return out
}

// opKinds are the kinds op o of kind kind computes: a B that does not
// split the backward also computes its W.
func (tr *iteration) opKinds(kind pipeline.Kind) []pipeline.Kind {
	if kind == pipeline.B && !tr.sch.SplitBackward {
		return []pipeline.Kind{pipeline.B, pipeline.W}
	}
	return []pipeline.Kind{kind}
}

// expertTail is how much longer op o of device d on stage k lasts than
// its balanced compute and blocking communication: the all-to-alls it
// exposes and the group's wait for its slowest GPU, on every GPU of the
// group.
func (tr *iteration) expertTail(o pipeline.Op, d, k int) units.Time {
	x := tr.experts
	if x == nil {
		return 0
	}
	t := x.exposedA2A(d, k, o)
	for _, kd := range tr.opKinds(o.Kind) {
		t += x.sync[kd][k] - x.bal[kd][k]
	}
	return t
}

// expertShare gives group op o of device d, model stage k, its GPUs' expert compute
// (the slowest of them, as the group runs in lockstep), the tail that
// makes it last as long as on every GPU of its expert-parallel group, and
// the activations its rows keep.
func (tr *iteration) expertShare(op *taskgraph.Group, d, k int, o pipeline.Op) {
	x := tr.experts
	if x == nil {
		return
	}
	kinds := tr.opKinds(o.Kind)
	j, worst := 0, units.Time(-1)
	for _, g := range op.GPUs {
		_, ep, _ := tr.plan.ExpertCoord(g)
		var e units.Time
		for _, kd := range kinds {
			e += x.expert[kd][k][ep]
		}
		if e > worst {
			j, worst = ep, e
		}
	}
	var bal, sync units.Time
	for _, kd := range kinds {
		bal += x.bal[kd][k]
		sync += x.sync[kd][k]
	}
	op.Compute = max(0, op.Compute-bal+worst) + x.splitCost(kinds, k)
	op.Tail, op.TailKind = sync-worst+x.exposedA2A(d, k, o), timeline.EPComm
	switch o.Kind {
	case pipeline.F:
		op.Take.Bytes += x.act[k][j]
	case pipeline.B:
		op.Give.Bytes += x.act[k][j]
	}
}

// expertActivations is the most activation bytes beyond the balanced ones
// that a GPU of model stage k keeps per microbatch.
func (tr *iteration) expertActivations(k int) float64 {
	if tr.experts == nil {
		return 0
	}
	var most float64
	for _, a := range tr.experts.act[k] {
		most = max(most, a)
	}
	return most
}
