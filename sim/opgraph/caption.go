//go:build !js

package opgraph

import (
	"fmt"

	"paraplay/sim/dataparallel"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Caption is the caption of an operator-graph demo: the simulated
// iteration and samples per second, the graph's parameters and forward
// FLOPs a sample (2 per multiply-accumulate); then, by split, the
// data-parallel all-reduce beside its α–β formula, the stages and their
// GPUs (with the planner's choice beside the best uniform split when
// graph.stage_replicas is auto), or the hybrid's iteration beside its
// closed form on free links (hybridFormula).
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	g, r, err := FromScenario(&s)
	if err != nil {
		return nil, err
	}
	params := g.Params()
	if SettingsOf(&s).Model == ModelVGG16 {
		params = VGG16Params(g) // with the convolutions' biases
	}
	parts := []strategy.Part{strategy.Figure("iteration {} simulated, {} samples/s", strategy.Nanos(sum.Iteration),
		strategy.Of(float64(r.Batch)/sum.Iteration.Seconds(), strategy.Count)),
		strategy.Figure(g.Name+": {} parameters, {} GFLOPs forward a sample", strategy.Of(float64(params), strategy.Count),
			strategy.Of(2*float64(g.MACs())/1e9, strategy.Sig3))}
	if r.Search != "" { // FlexFlow's or DLPlacer's (search_caption.go)
		more, err := searchParts(s, g, r, sum)
		return append(parts, more...), err
	}
	switch r.Split {
	case Data:
		if len(sum.Collectives) > 0 { // the bf16 gradient's all-reduce, beside its α–β formula
			more, err := nccltest.CollectiveParts(dataScenario(s, "", 1, 2*g.Params()), sum.Collectives[0])
			if err != nil {
				return nil, err
			}
			parts = append(parts, more...)
		}
	case Hybrid:
		parts = append(parts, hybridFormula(s, g, r, sum))
	default:
		if hasSkips(g) { // LAMP's split of a U-Net (lamp_caption.go)
			parts = append(parts, lampParts(g, r, sum, s.Cluster.Network == "ideal")...)
			break
		}
		more, err := stageParts(s, g, r)
		if err != nil {
			return nil, err
		}
		parts = append(parts, more...)
	}
	return parts, nil
}

// hybridFormula sets the hybrid's iteration beside 3E + 3W·c + 3f
// (hybrid.go), W the steps of the longest chain: each side's steps plus
// its layers less one. On free links (cluster.network ideal) with a GPU
// for every layer the two agree within a nanosecond a message; on real
// links the difference is what communication adds.
func hybridFormula(s scenario.Scenario, g Graph, r Run, sum timeline.Summary) strategy.Part {
	gpu, _ := r.check(g)
	tail := hybridTail(g)
	_, sides := hybridGPUs(g, r.GPUs)
	depth := 0
	var e, f, w units.Time
	for _, o := range g.Ops[tail:] {
		f += forwardTime(o, r.Batch/r.GPUs, gpu)
	}
	var c units.Time
	for _, side := range sides {
		o := g.Ops[side[0]]
		w += units.Time(o.Steps + len(side) - 1)
		c, depth = forwardTime(o, r.Batch, gpu)/units.Time(o.Steps), max(depth, len(side))
	}
	for _, o := range g.Ops[:tail] {
		if o.Kind == Embedding {
			e += forwardTime(o, r.Batch, gpu)
		}
	}
	want := 3*e + 3*w*c + 3*f
	if s.Cluster.Network == "ideal" && r.GPUs >= depth {
		return strategy.Compare(strategy.Check{Name: "seq2seq hybrid iteration", Formula: "3E + 3W·c + 3f",
			Source: "a wavefront of W LSTM steps forward and back, the softmax on each GPU's share", Tolerance: 1e-4},
			fmt.Sprintf("simulated {}; 3E + 3W·c + 3f = {} (W = %d steps)", int(w)), float64(sum.Iteration), float64(want), strategy.Nanoseconds)
	}
	return strategy.Figure(fmt.Sprintf("on free links 3E + 3W·c + 3f = {} (W = %d steps): the links add {}", int(w)),
		strategy.Nanos(want), strategy.Nanos(sum.Iteration-want))
}

// stageParts are a model split's stages and their GPUs; with
// graph.stage_replicas set (DAPPLE), also what DAPPLE's planner
// (PlanStages) chooses over every split of the GPUs, and the best
// uniform split (every stage the same GPUs: data parallel, 2 stages, …,
// GPipe), each simulated.
func stageParts(s scenario.Scenario, g Graph, r Run) ([]strategy.Part, error) {
	gpu, _ := r.check(g)
	reps := r.replicas()
	ends := stagesWeighted(g, reps, r.Batch/r.Microbatches, gpu)
	text := fmt.Sprintf("%d stages, GPUs %s, ops", len(reps), commas(reps))
	for i, e := range ends {
		if i > 0 {
			text += fmt.Sprintf(" | %d", ends[i-1]+1)
		} else {
			text += " 0"
		}
		text += fmt.Sprintf("–%d", e)
	}
	parts := []strategy.Part{strategy.Figure(text)}
	if len(r.StageReplicas) == 0 {
		return parts, nil
	}
	best, bt, err := planStages(g, r, s)
	if err != nil {
		return nil, err
	}
	uniform, which := units.Time(-1), ""
	for d := 1; d <= r.GPUs; d++ {
		if r.GPUs%d != 0 || len(cuts(g)) < r.GPUs/d-1 {
			continue
		}
		q := r
		q.StageReplicas = nil
		for range r.GPUs / d {
			q.StageReplicas = append(q.StageReplicas, d)
		}
		tl, err := simulate(g, q, s)
		if err != nil {
			return nil, err
		}
		if uniform < 0 || tl.End < uniform {
			uniform, which = tl.End, commas(q.StageReplicas)
		}
	}
	return append(parts, strategy.Figure(fmt.Sprintf("DAPPLE's planner, over %d splits: GPUs %s, {} simulated; best uniform split (GPUs %s) {}",
		1<<(r.GPUs-1), commas(best.StageReplicas), which), strategy.Nanos(bt), strategy.Nanos(uniform))), nil
}

// commas writes GPUs per stage as graph.stage_replicas takes them: 1,1,1,5.
func commas(xs []int) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(x)
	}
	return s
}

// dataScenario is base run by the data-parallel strategy with forward
// time fwd (backward 2·fwd) and a gradient of bytes, summed by a ring: the
// scenario whose α–β formula the caption sets beside a data split's
// all-reduce.
func dataScenario(base scenario.Scenario, name string, fwd units.Time, bytes int64) scenario.Scenario {
	s := base
	s.Name, s.Strategy = name, dataparallel.Name
	s.Compute = scenario.Compute{Forward: max(1, fwd), Backward: max(1, 2*fwd)}
	s.Collective = scenario.Collective{Op: "all_reduce", Algorithm: scenario.AlgorithmRing, Size: units.Bytes(max(1, bytes)), Chunks: 1}
	if s.Cluster.Network == "ideal" {
		s.GPUs, s.Cluster = s.NumGPUs(), scenario.Cluster{}
		s.Link = scenario.Link{Bandwidth: ideal.Bandwidth}
	}
	return s
}
