package rlhf

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Simulate plays c's Steps RL steps and returns the timeline: one span per
// GPU and phase, labelled by model ("actor generate", "reward score"), and
// the RLHF record. title names the run. The result passes
// timeline.Validate.
func Simulate(c Config, title string) (*timeline.Timeline, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := &player{c: c, ph: c.Phases(), p: c.split()}
	r.tl = r.layout(title)
	switch c.Placement {
	case CoLocated:
		r.coLocated()
	case Interleaved:
		r.interleaved()
	default:
		r.disaggregated()
	}
	tl := r.tl
	slices.SortStableFunc(tl.Spans, func(a, b timeline.Span) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU))
	})
	for _, s := range tl.Spans {
		tl.End = max(tl.End, s.End)
	}
	if err := tl.Validate(); err != nil {
		return nil, fmt.Errorf("rlhf: internal error, the timeline is inconsistent: %w", err)
	}
	return tl, nil
}

// player builds one run's timeline.
type player struct {
	c  Config
	ph Phases
	p  pools
	tl *timeline.Timeline
}

// layout starts the timeline: the GPUs, one node per pool with its own
// switch, and a network switch joining the pools.
func (r *player) layout(title string) *timeline.Timeline {
	c := r.c
	tl := &timeline.Timeline{Title: title, Fidelity: "analytic"}
	rec := &timeline.RLHF{Placement: c.Placement, QueueCapacity: c.Queue, Staleness: c.Staleness, SyncEvery: c.SyncEvery}
	critic := []string{}
	if c.HasCritic() {
		critic = []string{"critic"}
	}
	switch c.Placement {
	case CoLocated:
		rec.Pools = []timeline.Pool{{Name: "all models", GPU: c.TrainGPU.Name, GPUs: r.p.first, PricePerHour: c.TrainPrice,
			Models: append([]string{"actor", "reference", "reward"}, critic...)}}
	case Interleaved:
		rec.Pools = []timeline.Pool{
			{Name: "actor + reference", GPU: c.GenGPU.Name, GPUs: r.p.first, PricePerHour: c.GenPrice, Models: []string{"actor", "reference"}},
			{Name: "reward + critic", GPU: c.TrainGPU.Name, GPUs: r.p.second, PricePerHour: c.TrainPrice, Models: append([]string{"reward"}, critic...)},
		}
	default:
		rec.Pools = []timeline.Pool{
			{Name: "generation pool", GPU: c.GenGPU.Name, GPUs: r.p.first, PricePerHour: c.GenPrice, Models: []string{"actor (rollout copy)"}},
			{Name: "training pool", GPU: c.TrainGPU.Name, GPUs: r.p.second, PricePerHour: c.TrainPrice,
				Models: append([]string{"actor", "reference", "reward"}, critic...)},
		}
	}
	for i, m := range c.Memory() {
		gpu := c.TrainGPU
		if i == 0 {
			gpu = c.firstGPU()
		}
		rec.Pools[i].PeakMemory, rec.Pools[i].Capacity = m.Peak, gpu.HBM
	}
	tl.RLHF = rec
	for node, pool := range rec.Pools {
		for _, g := range pool.GPUs {
			tl.GPUs = append(tl.GPUs, timeline.GPU{ID: g, Name: "GPU " + fmt.Sprint(g), Node: node})
		}
	}
	n := len(tl.GPUs)
	link := func(from, to int, bw units.Bandwidth) {
		for _, e := range [2][2]int{{from, to}, {to, from}} {
			tl.Links = append(tl.Links, timeline.Link{ID: len(tl.Links), From: e[0], To: e[1], Bandwidth: bw})
		}
	}
	for node, pool := range rec.Pools {
		sw := n + len(tl.Switches)
		tl.Switches = append(tl.Switches, timeline.Switch{ID: sw, Name: "NVSwitch " + fmt.Sprint(node), Kind: "nvswitch", Node: node})
		gpu := c.TrainGPU
		if node == 0 {
			gpu = c.firstGPU()
		}
		bw := max(intraBandwidth(gpu), 1)
		for _, g := range pool.GPUs {
			link(g, sw, bw)
		}
	}
	if len(rec.Pools) > 1 {
		net := n + len(tl.Switches)
		tl.Switches = append(tl.Switches, timeline.Switch{ID: net, Name: "network", Kind: "leaf", Node: -1})
		for node, pool := range rec.Pools {
			link(n+node, net, max(c.SyncBandwidth, 1)*units.Bandwidth(len(pool.GPUs)))
		}
	}
	return tl
}

// span adds one span per GPU of gpus for [start, start+d), unless d is 0,
// and returns its end.
func (r *player) span(gpus []int, kind timeline.Kind, label string, step int, start, d units.Time) units.Time {
	if d <= 0 {
		return start
	}
	for _, g := range gpus {
		// Microbatch is 4·step + the model's index, so a view that joins
		// touching spans of one kind and microbatch keeps steps and models
		// apart (the actor's and the critic's training touch).
		r.tl.Spans = append(r.tl.Spans, timeline.Span{GPU: g, Kind: kind, Label: label, Iteration: step,
			Microbatch: 4*step + modelIndex(label), Start: start, End: start + d})
	}
	return start + d
}

// chain runs phases one after another on gpus from start and returns
// when the last ends.
func (r *player) chain(gpus []int, step int, start units.Time, phases ...phase) units.Time {
	t := start
	for _, p := range phases {
		t = r.span(gpus, p.kind, p.label, step, t, p.d)
	}
	return t
}

// phase is one span to chain.
type phase struct {
	kind  timeline.Kind
	label string
	d     units.Time
}

func (r *player) scoring(pool int) []phase {
	ph := r.ph
	switch {
	case r.c.Placement == Interleaved && pool == 0:
		return []phase{{timeline.Score, "reference score", ph.Reference}}
	case r.c.Placement == Interleaved:
		return []phase{{timeline.Score, "reward score", ph.Reward}, {timeline.Score, "critic score", ph.CriticScore}}
	}
	return []phase{{timeline.Score, "reference score", ph.Reference}, {timeline.Score, "reward score", ph.Reward},
		{timeline.Score, "critic score", ph.CriticScore}}
}

func (r *player) training(pool int) []phase {
	ph := r.ph
	switch {
	case r.c.Placement == Interleaved && pool == 0:
		return []phase{{timeline.Train, "actor train", ph.ActorTrain}}
	case r.c.Placement == Interleaved:
		return []phase{{timeline.Train, "critic train", ph.CriticTrain}}
	}
	return []phase{{timeline.Train, "actor train", ph.ActorTrain}, {timeline.Train, "critic train", ph.CriticTrain}}
}

// coLocated runs every phase on every GPU, one after another: reshard,
// generate, score, train.
func (r *player) coLocated() {
	var t units.Time
	all := r.p.first
	for k := range r.c.Steps {
		t = r.span(all, timeline.Reshard, "actor reshard", k, t, r.ph.Reshard)
		gen := t
		t = r.span(all, timeline.Generate, "actor generate", k, t, r.ph.Generate)
		scored := t
		t = r.chain(all, k, t, r.scoring(0)...)
		t = r.chain(all, k, t, r.training(0)...)
		r.tl.RLHF.Steps = append(r.tl.RLHF.Steps, timeline.RLStep{Index: k, GenStart: gen, GenEnd: scored, TrainStart: scored, TrainEnd: t, Version: k})
	}
}

// interleaved runs the actor's reshard and generation on the first pool
// (the second waits: only the actor generates), then the scoring passes
// and then the training passes of both pools at once, each phase ending
// when the slower pool ends it.
func (r *player) interleaved() {
	var t units.Time
	a, b := r.p.first, r.p.second
	for k := range r.c.Steps {
		t = r.span(a, timeline.Reshard, "actor reshard", k, t, r.ph.Reshard)
		gen := t
		t = r.span(a, timeline.Generate, "actor generate", k, t, r.ph.Generate)
		scored := t
		t = max(r.chain(a, k, t, r.scoring(0)...), r.chain(b, k, t, r.scoring(1)...))
		t = max(r.chain(a, k, t, r.training(0)...), r.chain(b, k, t, r.training(1)...))
		r.tl.RLHF.Steps = append(r.tl.RLHF.Steps, timeline.RLStep{Index: k, GenStart: gen, GenEnd: scored, TrainStart: scored, TrainEnd: t, Version: k})
	}
}

// modelIndex numbers the model a span's label names: actor 0, reference 1,
// reward 2, critic 3.
func modelIndex(label string) int {
	for i, m := range []string{"actor", "reference", "reward", "critic"} {
		if strings.HasPrefix(label, m) {
			return i
		}
	}
	return 0
}
