package training

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/gemm"
	"paraplay/sim/hw"
	"paraplay/sim/operators"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Name is the strategy key's value of a training run: one iteration (or
// several, with faults) of a real or synthetic model under a hybrid plan
// of dp, tp, pp, cp, ep, ZeRO and a pipeline schedule. A scenario that
// sets a model, parallel or training key and no strategy is one.
const Name = "training"

// Strategy is the training strategy: it reads the model, parallel,
// training, data, faults, straggler, recovery and failures sections.
type Strategy struct{}

// Name is Name.
func (Strategy) Name() string { return Name }

// Keys declares the shared sections a training run reads, the keys that
// make a scenario one, and its cluster of up to MaxClusterGPUs GPUs
// (collectives turn analytic above 512).
func (Strategy) Keys() scenario.Keys {
	return scenario.Keys{
		Uses: []string{"model", "parallel", "training", "cluster.node_gpus", "data", "faults", "straggler",
			"recovery", "failures", "compression.ratio", "compression.time_per_mib", "compression.activations",
			"compression.parameters", "compression.rank", "fidelity"},
		Claims: []string{"model", "parallel", "training", "data", "straggler", "recovery", "failures", "faults",
			"iterations", "cluster.node_gpus"},
		MinGPUs:  1,
		MaxGPUs:  scenario.MaxClusterGPUs,
		Sections: []scenario.Section{sdpSection, costSection},
	}
}

// Check checks the model, plan and training sections.
func (Strategy) Check(s *scenario.Scenario, bad scenario.Reporter) {
	checkModel(s, bad)
	p := s.Parallel
	plan := p.Plan()
	if _, err := plan.Check(s.NumGPUs(), s.PerNode()); err != nil {
		for _, e := range scenario.Problems(err) {
			// Check's errors already start with "parallel.<dim>: ".
			field, msg, _ := strings.Cut(e.Error(), ": ")
			bad(field, "%s", msg)
		}
	}
	checkPlan(p, bad)
	checkZeROGroup(p, bad)
	checkZeROLayers(s, bad)
	if len(p.LayersPerStage) > 0 || p.FirstLastFewer != 0 {
		// The schedule's model stages, when it builds (0 otherwise),
		// counted without building it: the planner validates thousands.
		stages, _ := pipeline.ModelStages(p.Schedule, p.PP, p.Microbatches, p.ChunksArg())
		checkLayerSplit(s, stages, bad)
	}
	checkExperts(s, bad)
	checkOperatorSplit(s, bad)
	checkResiHP(s, bad)
	checkSDP(s, bad)
	checkCyclic(s, bad)
	checkCost(s, bad)
	checkPrecision(s, bad)
	checkRecomputeModules(s, bad)
	if s.Training.FP8ActivationCache && (s.Training.Precision != "fp8" || s.Model.IsSynthetic() || s.Model.Eager()) {
		bad("training.fp8_activation_cache", "is true with precision %q; it needs training.precision fp8 on a real model with flash attention", s.Training.Precision)
	}
	checkRank(s, bad)
	if t := s.Training; t.Optimizer != "adam" {
		bad("training.optimizer", "%q is not known; allowed: adam", t.Optimizer)
	}
	if p.TPCommOverlap && (p.TP < 2 || !p.SequenceParallel) {
		bad("parallel.tp_comm_overlap", "is true with tp %d and sequence_parallel %v; it needs tp ≥ 2 and sequence_parallel: true (the overlap splits sequence parallelism's all-gathers and reduce-scatters)", p.TP, p.SequenceParallel)
	}
	if g := p.GradReduce; g != "" && g != GradReduceOverlap && g != GradReduceAfterBackward {
		bad("parallel.grad_reduce", "%q is not known; allowed: %s, %s", g, GradReduceOverlap, GradReduceAfterBackward)
	}
	if m := p.P2P; m != "" && m != P2PAsync && !blockingP2P(m) {
		bad("parallel.p2p", "%q is not known; allowed: %s, %s, %s", m, P2PAsync, P2PBlocking, P2PBlockingList)
	} else if blockingP2P(m) && p.Schedule == "ready-first" {
		bad("parallel.p2p", "is %s with parallel.schedule ready-first; allowed: async (a blocking send holds the sender until its next op in a fixed order, which ready-first decides at run time)", m)
	}
	if g := s.Training.GradAccumulation; g != "" && g != "fused" && g != "unfused" {
		bad("training.grad_accumulation", "%q is not known; allowed: fused, unfused", g)
	}
	if e := s.Training.Efficiency; !(e >= 0 && e <= 1) {
		bad("training.efficiency", "is %v; allowed 0 < e ≤ 1 (0 = the GPU preset's)", e)
	}
}

// checkRecomputeModules checks parallel.recompute_modules: known names,
// under selective recomputation, on what the operator-level cost model
// prices (the re-run kernels' time and the bytes they free come from a
// layer's operator list, package operators).
func checkRecomputeModules(s *scenario.Scenario, bad scenario.Reporter) {
	p := s.Parallel
	mods, err := operators.ParseModules(p.RecomputeModules)
	switch {
	case err != nil:
		bad("parallel.recompute_modules", "%v", err)
		return
	case mods == 0:
		return
	case p.Recompute != string(workload.RecomputeSelective):
		bad("parallel.recompute_modules", "is %q; it needs parallel.recompute selective (recompute is %q)", p.RecomputeModules, p.Recompute)
		return
	case mods == operators.CoreAttn:
		return // selective recomputation's default
	case s.Model.IsSynthetic() || s.Model.Eager():
		bad("parallel.recompute_modules", "is %q; modules beyond core_attn need a real model with model.attention flash (eager attention follows Korthikanti et al.'s accounting)", p.RecomputeModules)
		return
	case s.Training.Efficiency != 0:
		bad("parallel.recompute_modules", "is %q with training.efficiency %v; modules beyond core_attn need the operator-level cost model (leave training.efficiency unset)", p.RecomputeModules, s.Training.Efficiency)
		return
	}
	if _, err := gemm.Lookup(s.Cluster.GPU); err != nil {
		bad("parallel.recompute_modules", "is %q; modules beyond core_attn need a GPU with measured GEMM parameters: %v", p.RecomputeModules, err)
	}
	if m, err := s.Model.Resolve(); err == nil {
		if mods&operators.MLAUpProj != 0 && !m.IsMLA() {
			bad("parallel.recompute_modules", "names mla_up_proj; model %s has no multi-head latent attention", m.Name)
		}
		if mods&operators.MoEAct != 0 && !m.IsMoE() {
			bad("parallel.recompute_modules", "names moe_act; model %s has no mixture of experts", m.Name)
		}
	}
}

// checkResiHP checks what the animated resihp policy needs when a faults
// list gives it something to act on: a real, dense model on one type of
// GPU (it re-partitions layers and moves their state), links at their
// full bandwidth (a regrouped layout does not carry link_degrade faults)
// and, when a GPU stops, a data-parallel replica to copy the lost state
// from.
func checkResiHP(s *scenario.Scenario, bad scenario.Reporter) {
	if s.Recovery.Policy != scenario.PolicyResiHP || len(s.Faults) == 0 {
		return
	}
	m, err := s.Model.Resolve()
	degrade := slices.ContainsFunc(s.Faults, func(f scenario.Fault) bool { return f.Kind == scenario.LinkDegrade })
	if s.Model.IsSynthetic() || err == nil && m.IsMoE() || s.Parallel.EP > 1 || len(s.Cluster.NodeGPUs) > 0 || degrade || s.Stops() && s.Parallel.DP < 2 {
		bad("recovery.policy", "is resihp, which re-partitions a dense model's layers and copies a stopped GPU's state from another data-parallel replica: "+
			"it needs a model without experts (not model.synthetic), one GPU type (no cluster.node_gpus), no link_degrade faults and, when a GPU stops, parallel.dp ≥ 2 (it is %d)", s.Parallel.DP)
	}
}

// checkPrecision checks training.precision: bf16 and fp16 run on every
// GPU, fp8 only where every GPU of the cluster (cluster.gpu and each
// node of cluster.node_gpus) has FP8 tensor cores (hw.GPU.PeakFP8 > 0).
func checkPrecision(s *scenario.Scenario, bad scenario.Reporter) {
	p := s.Training.Precision
	if p != "bf16" && p != "fp16" && p != "fp8" {
		bad("training.precision", "%q is not known; allowed: bf16, fp16, fp8 (fp8 on GPUs with FP8 tensor cores)", p)
		return
	}
	if p != "fp8" {
		return
	}
	where := "cluster.gpu"
	for i, name := range append([]string{s.Cluster.GPU}, s.Cluster.NodeGPUs...) {
		if i > 0 {
			where = fmt.Sprintf("cluster.node_gpus (node %d)", i-1)
		}
		g, err := hw.LookupGPU(name)
		if err != nil || g.HasFP8() {
			continue // an unknown or empty name is cluster's to report
		}
		bad("training.precision", "is fp8, but %s is %s (%s), which has no FP8 tensor cores; allowed on it: %s",
			where, g.Name, g.DisplayName, strings.Join(g.Precisions(), ", "))
		return
	}
}

// checkModel checks the model section: a preset, a full shape or
// synthetic op times.
func checkModel(s *scenario.Scenario, bad scenario.Reporter) {
	m := s.Model
	for _, f := range []struct {
		field  string
		v, max int
	}{{"model.layers", m.Layers, 1000}, {"model.hidden", m.Hidden, 1 << 17}, {"model.heads", m.Heads, 4096},
		{"model.kv_heads", m.KVHeads, 4096}, {"model.ffn_hidden", m.FFNHidden, 1 << 20},
		{"model.vocab", m.Vocab, 1 << 22}, {"model.seq_len", m.SeqLen, 1 << 22}} {
		if f.v < 0 || f.v > f.max {
			bad(f.field, "is %d; allowed 1..%d (0 = the preset's)", f.v, f.max)
		}
	}
	if m.Attention != "" && m.Attention != "flash" && m.Attention != "eager" && m.Attention != "mla" {
		bad("model.attention", "%q is not known; allowed: flash, eager, mla", m.Attention)
	}
	if m.IsSynthetic() {
		if m.Preset != "" {
			bad("model.synthetic", "is set with model.preset %q; a model is one or the other", m.Preset)
		}
		for _, f := range []struct {
			field string
			v     units.Time
		}{{"model.synthetic.forward", m.Synthetic.Forward}, {"model.synthetic.backward_input", m.Synthetic.BackwardInput},
			{"model.synthetic.backward_weight", m.Synthetic.BackwardWeight}} {
			if f.v < 0 || f.v > scenario.MaxCompute {
				bad(f.field, "is %v; allowed 0..%v", f.v, scenario.MaxCompute)
			}
		}
	} else if m.Preset == "" && (m.Layers == 0 || m.Hidden == 0 || m.Heads == 0 || m.Vocab == 0 || m.SeqLen == 0) {
		bad("model.preset", "is empty; give a preset (e.g. llama3-8b), a full shape (layers, hidden, heads, vocab, seq_len) or synthetic op times")
	} else if w, err := m.Resolve(); err != nil {
		bad("model", "%v", err)
	} else if p := s.Parallel; p.PP >= 1 && p.PP <= 1024 && p.VirtualStages >= 1 && p.VirtualStages <= 64 {
		// Every model stage needs a layer: refused here, at validation,
		// not when the run lays out its stages.
		// The schedule's model stages (two a device under the V shapes),
		// or pp·v when it does not build (checkPlan names why).
		stages := p.PP * p.VirtualStages
		if p.Microbatches >= 1 && p.Microbatches <= 4096 {
			if n, err := pipeline.ModelStages(p.Schedule, p.PP, p.Microbatches, p.ChunksArg()); err == nil {
				stages = n
			}
		}
		var fe *scenario.FieldError
		if _, err := stageLayers(p, w.Layers, stages); errors.As(err, &fe) {
			bad(fe.Field, "%s", fe.Msg)
		}
	}
}

// checkPlan checks the plan's stages, batches and schedule.
func checkPlan(p scenario.Parallel, bad scenario.Reporter) {
	if p.ZeRO < 0 || p.ZeRO > 3 {
		bad("parallel.zero", "is %d; allowed 0, 1, 2, 3", p.ZeRO)
	}
	if p.Microbatches < 1 || p.Microbatches > 4096 {
		bad("parallel.microbatches", "is %d; allowed 1..4096", p.Microbatches)
	}
	if p.MicroBatchSize < 1 || p.MicroBatchSize > 4096 {
		bad("parallel.micro_batch_size", "is %d; allowed 1..4096", p.MicroBatchSize)
	}
	if p.VirtualStages < 1 || p.VirtualStages > 64 {
		bad("parallel.virtual_stages", "is %d; allowed 1..64", p.VirtualStages)
	}
	if !workload.Recompute(p.Recompute).Valid() {
		bad("parallel.recompute", "%q is not known; allowed: none, selective, full", p.Recompute)
	}
	if names := pipeline.Names(); !slices.Contains(names, p.Schedule) {
		bad("parallel.schedule", "%q is not known; allowed: %s", p.Schedule, strings.Join(names, ", "))
	} else if p.PP >= 1 && p.Microbatches >= 1 && p.VirtualStages >= 1 && p.PP <= 1024 && p.Microbatches <= 4096 {
		if err := pipeline.Check(p.Schedule, p.PP, p.Microbatches, p.ChunksArg()); err != nil {
			bad("parallel.schedule", "%v", err)
		}
	}
}

// Title is e.g. "llama3-8b on 16 GPUs (dp 2, tp 4, pp 2)".
func (Strategy) Title(s *scenario.Scenario) string {
	p := s.Parallel
	plan := fmt.Sprintf("dp %d, tp %d, pp %d", p.DP, p.TP, p.PP)
	if p.CP > 1 {
		plan += fmt.Sprintf(", cp %d", p.CP)
	}
	if p.EP > 1 {
		plan += fmt.Sprintf(", ep %d", p.EP)
	}
	return fmt.Sprintf("%s on %s (%s)", s.Model.Label(), scenario.GPUCount(s.NumGPUs()), plan)
}

// microbatches is "1 microbatch" or "m microbatches".
func microbatches(m int) string {
	if m == 1 {
		return "1 microbatch"
	}
	return fmt.Sprintf("%d microbatches", m)
}

// Describe is e.g. "llama3-8b on 16 GPUs: dp 2 × tp 4 × pp 2, 1f1b with 8
// microbatches, h100-sxm".
func (Strategy) Describe(s *scenario.Scenario) string {
	var b strings.Builder
	p := s.Parallel
	fmt.Fprintf(&b, "%s on %s: dp %d × tp %d × pp %d", s.Model.Label(), scenario.GPUCount(s.NumGPUs()), p.DP, p.TP, p.PP)
	if p.CP > 1 {
		fmt.Fprintf(&b, " × cp %d", p.CP)
	}
	fmt.Fprintf(&b, ", %s with %s", p.Schedule, microbatches(p.Microbatches))
	if p.ZeRO > 0 {
		fmt.Fprintf(&b, ", ZeRO-%d", p.ZeRO)
	}
	if s.Cluster.GPU != "" {
		fmt.Fprintf(&b, ", %s", s.Cluster.GPU)
	}
	return b.String()
}
