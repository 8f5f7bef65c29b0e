//go:build !js

package training

import (
	"math"
	"slices"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// DPBound is a data-parallel run on a TPU slice measured against the
// scaling book's rule for it (Austin et al. 2025, 'How to Scale Your
// Model', Part 5 'How to Parallelize a Transformer for Training', 'Data
// Parallelism'): the gradient all-reduce's bytes do not grow with the
// batch while the backward pass's FLOPs do, so a step is compute-bound
// once each data shard's tokens exceed C / W_ici, C the chip's FLOP/s and
// W_ici its bidirectional ICI bandwidth over the axes the all-reduce
// spans (2·B_link per axis).
type DPBound struct {
	// Axes is the torus axes the first GPU's data-parallel all-reduce
	// spans, e.g. "z" or "xyz".
	Axes string
	// Comm is that all-reduce's time over the step (every bucket).
	Comm units.Time
	// Backward is the first GPU's backward compute over the step.
	Backward units.Time
	// Tokens is the tokens of one data shard a step (B/X in the book).
	Tokens float64
	// Critical is Tokens·Comm/Backward: the tokens per data shard at which
	// the all-reduce would take as long as the backward pass.
	Critical float64
	// Book is the book's bound, e·C / (2·B_link·axes), with e the
	// efficiency the run computes at (1: the book's peak C).
	Book float64
}

// TorusDPBound measures s's run tl against the book's rule, ok false when
// s is not on one TPU slice or its first GPU's data-parallel sums are not
// torus all-reduces (FSDP's reduce-scatters and gathers are left to the
// book's separate FSDP bound, which this does not measure).
func TorusDPBound(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) (DPBound, bool) {
	sl, ok := s.MeshSlice()
	if !ok || sl.Slices > 1 || s.Parallel.DP < 2 || sum.TokensPerSecond <= 0 { // over the DCN the ICI bound is not the one
		return DPBound{}, false
	}
	pod, err := sl.Check()
	if err != nil {
		return DPBound{}, false
	}
	t := sl.Torus(pod)
	var b DPBound
	for _, c := range tl.Collectives {
		if c.Purpose == "dp" && c.Name == collective.OpAllReduce && c.Algorithm == "torus" && len(c.GPUs) > 0 && c.GPUs[0] == 0 && c.End > c.Start {
			b.Comm += c.End - c.Start
			b.Axes = boxAxes(t, c.GPUs)
		}
	}
	for _, sp := range tl.Spans {
		if sp.GPU == 0 && sp.Kind == timeline.Backward {
			b.Backward += sp.End - sp.Start
		}
	}
	gpu, err1 := hw.LookupGPU(s.Cluster.GPU)
	link, err2 := hw.LookupLink(gpu.Link)
	if b.Comm == 0 || b.Backward == 0 || err1 != nil || err2 != nil {
		return DPBound{}, false
	}
	b.Tokens = sum.TokensPerSecond * sum.Iteration.Seconds() / float64(s.Parallel.DP)
	b.Critical = b.Tokens * float64(b.Comm) / float64(b.Backward)
	eff := s.Training.Efficiency
	if eff == 0 {
		eff = gpu.Efficiency
	}
	b.Book = eff * gpu.PeakFLOPS / (2 * float64(link.Effective()) * float64(len(b.Axes)))
	return b, true
}

// boxAxes names the torus axes along which gpus differ, x, y, z in order.
func boxAxes(t topo.Torus, gpus []int) string {
	_, c0 := t.Coord(gpus[0])
	var spans [3]bool
	for _, id := range gpus {
		_, c := t.Coord(id)
		for a := range c {
			spans[a] = spans[a] || c[a] != c0[a]
		}
	}
	var out string
	for a, on := range spans {
		if on {
			out += string("xyz"[a])
		}
	}
	return out
}

// torusMetrics is a TPU slice's part of the caption: the data-parallel
// all-reduce over its torus axes against the backward pass, as the tokens
// per data shard that would balance them beside the book's C / W_ici;
// with training.tokens, the days the whole run takes.
func torusMetrics(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) []strategy.Part {
	if _, ok := s.Slice(); !ok {
		return nil
	}
	var parts []strategy.Part
	if b, ok := TorusDPBound(s, tl, sum); ok {
		parts = append(parts, strategy.Figure("the data-parallel torus all-reduce over axes "+b.Axes+" takes {} a step against {} of backward compute",
			strategy.Nanos(b.Comm), strategy.Nanos(b.Backward)))
		parts = append(parts, strategy.Compare(strategy.Check{Name: "tokens per chip for compute-bound data parallelism", Formula: "e·C / (2·W_link·axes)",
			Source: "Austin et al. 2025, How to Scale Your Model, Part 5", Tolerance: 0.1},
			"so compute-bound above {} tokens per data shard; the book's e·C / W_ici: {}", math.Round(b.Critical), math.Round(b.Book), strategy.Int))
	}
	parts = append(parts, torusTraffic(s, tl)...)
	if days, book, ok := TrainingDays(s, sum); ok {
		parts = append(parts, strategy.Compare(strategy.Check{Name: "days to train", Formula: "6·N·T / (chips·e·C)",
			Source: "Austin et al. 2025, How to Scale Your Model, Part 6", Tolerance: 0.1},
			"{} days to train on the budget's tokens; the book's 6·N·T / (chips·e·C): {} days", days, book, strategy.Sig3))
	}
	return parts
}

// TrainingDays is the days a run of s takes over its token budget
// (training.tokens) at the simulated throughput, beside the book's
// estimate for a compute-bound run (Austin et al. 2025, Part 6 'Training
// LLaMA 3 on TPUs'): 6·N·T FLOPs over chips × e × C, N the model's
// parameters, T the tokens, e the efficiency (its MFU), C the chip's peak.
func TrainingDays(s scenario.Scenario, sum timeline.Summary) (days, book float64, ok bool) {
	tok := s.Training.Tokens
	m, err := s.Model.Resolve()
	gpu, err2 := hw.LookupGPU(s.Cluster.GPU)
	if tok <= 0 || sum.TokensPerSecond <= 0 || err != nil || err2 != nil {
		return 0, 0, false
	}
	eff := s.Training.Efficiency
	if eff == 0 {
		eff = gpu.Efficiency
	}
	n := float64(workload.Params(m).Total())
	book = 6 * n * tok / (float64(s.NumGPUs()) * eff * gpu.PeakFLOPS) / 86400
	return tok / sum.TokensPerSecond / 86400, book, true
}

// TorusTraffic is the bytes chip 0 receives along each torus axis (x, y,
// z) and over the data-centre network in the run's torus collectives (the
// data-parallel and ZeRO ones; tensor- and sequence-parallel traffic is
// priced as time, not recorded as collectives: TorusMeshTraffic adds it):
// each collective's box and collective.TorusAxisBytes, and over several
// slices each slice's torus part the same way and the DCN ring's steps
// (collective.TorusSlicesDCNBytes: 2(M−1) chunks of S/(N·M) in an
// all-reduce, M−1 in a reduce-scatter or a gather); a ring over one chip
// of each slice (hierarchical ZeRO's, parallel.zero_group) is DCN traffic
// alone. ok is false off a slice or without such a collective.
func TorusTraffic(s scenario.Scenario, tl *timeline.Timeline) (ici [3]float64, dcn float64, ok bool) {
	t, on := meshTorus(s)
	if !on {
		return ici, 0, false
	}
	for _, c := range tl.Collectives {
		if !slices.Contains(c.GPUs, 0) {
			continue
		}
		if c.Algorithm == "ring" && acrossSlices(&t, c.GPUs) {
			dcn += ringBytes(c.Name, len(c.GPUs), c.Bytes) // every hop of the ring crosses the DCN
			ok = true
		}
		if c.Algorithm != "torus" {
			continue
		}
		g, _, box := torusBox(&t, c.GPUs)
		if !box {
			var m int
			if g, _, m, box = slicesBox(&t, c.GPUs); !box {
				continue
			}
			dcn += collective.TorusSlicesDCNBytes(c.Name, g, m, c.Bytes)
		}
		b := collective.TorusAxisBytes(c.Name, g, c.Bytes)
		for a := range ici {
			ici[a] += b[a]
		}
		ok = true
	}
	return ici, dcn, ok
}

// acrossSlices reports whether gpus are one chip in each of several
// slices (a hierarchical ZeRO's all-reduce across its groups).
func acrossSlices(t *topo.Torus, gpus []int) bool {
	seen := make([]bool, t.Slices)
	for _, id := range gpus {
		sl, _ := t.Coord(id)
		if seen[sl] {
			return false
		}
		seen[sl] = true
	}
	return len(gpus) > 1
}

// ringBytes is the bytes each of n ranks receives in a ring op of S bytes
// (Patarasuk & Yuan 2009): (n−1)/n·S in a reduce-scatter or an
// all-gather, twice that in an all-reduce; 0 for other ops.
func ringBytes(op collective.Op, n int, s units.Bytes) float64 {
	b := float64(n-1) / float64(n) * float64(s)
	switch op {
	case collective.OpAllReduce:
		return 2 * b
	case collective.OpReduceScatter, collective.OpAllGather:
		return b
	}
	return 0
}

// meshTorus is s's torus, its chips numbered as its mesh lays them out;
// ok is false off a slice.
func meshTorus(s scenario.Scenario) (topo.Torus, bool) {
	sl, on := s.MeshSlice()
	if !on {
		return topo.Torus{}, false
	}
	pod, err := sl.Check()
	if err != nil {
		return topo.Torus{}, false
	}
	return sl.Torus(pod), true
}

// torusTraffic is TorusMeshTraffic as caption parts: the bytes chip 0
// receives a step along each axis of the slice (and over the DCN), one
// part for each kind of parallelism that sends any.
func torusTraffic(s scenario.Scenario, tl *timeline.Timeline) []strategy.Part {
	mt, ok := TorusMeshTraffic(s, tl)
	sl, _ := s.Slice()
	if !ok {
		return nil
	}
	var parts []strategy.Part
	for _, k := range []struct {
		what string
		t    AxisTraffic
	}{{"its data-parallel torus collectives", mt.Data}, {"its tensor-parallel all-reduces (model axis)", mt.Model},
		{"ring attention's keys and values (seq axis)", mt.Seq}} {
		if k.t == (AxisTraffic{}) {
			continue
		}
		text, vals := "chip 0 receives in "+k.what, []strategy.Value(nil)
		for a, n := range sl.Shape {
			if n > 1 {
				text += " " + string("xyz"[a]) + " {}"
				vals = append(vals, strategy.Bytes(units.Bytes(k.t.ICI[a]), strategy.Size))
			}
		}
		if sl.Slices > 1 {
			text += ", DCN {}"
			vals = append(vals, strategy.Bytes(units.Bytes(k.t.DCN), strategy.Size))
		}
		parts = append(parts, strategy.Figure(text+" a step", vals...))
	}
	return parts
}
