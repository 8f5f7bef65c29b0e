package splitlearn

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"paraplay/sim/engine"
	"paraplay/sim/fabric"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Simulate runs the configuration's rounds and returns the timeline: a
// span per forward and backward on every client and compute node, a
// transfer per message on the links, each actor's memory, and the rounds
// (Timeline.Split). The result passes timeline.Validate.
func Simulate(c Config) (*timeline.Timeline, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	p := NewPlan(c)
	t := Topology(c)
	eng := &engine.Engine{}
	r := &runner{c: c, p: p, eng: eng, net: fabric.New(t, eng), tl: newTimeline(t, c.Title),
		gpuAt: make([]units.Time, len(t.GPUs))}
	r.build()
	r.tl.End = eng.Run()
	if r.err != nil {
		return nil, r.err
	}
	r.record()
	if err := r.tl.Validate(); err != nil {
		return nil, fmt.Errorf("splitlearn: internal error, the timeline is inconsistent: %w", err)
	}
	return r.tl, nil
}

// Topology is the network of c: its clients on access links of
// c.Uplink and c.Downlink, the compute nodes' chain (topo.SplitLearning).
func Topology(c Config) *topo.Topology {
	ports := make([]topo.ClientPort, len(c.Devices))
	for i := range ports {
		ports[i] = topo.ClientPort{Up: topo.Port{Bandwidth: c.Uplink, Latency: c.ClientLatency},
			Down: topo.Port{Bandwidth: c.Downlink, Latency: c.ClientLatency}}
	}
	return topo.SplitLearning(ports, c.Hops, topo.Port{Bandwidth: c.ServerBandwidth},
		topo.Port{Bandwidth: c.HopBandwidth, Latency: c.HopLatency})
}

func newTimeline(t *topo.Topology, title string) *timeline.Timeline {
	tl := &timeline.Timeline{Title: title, Fidelity: "detailed", Spans: []timeline.Span{}, Transfers: []timeline.Transfer{},
		Collectives: []timeline.Collective{}}
	for _, g := range t.GPUs {
		tl.GPUs = append(tl.GPUs, timeline.GPU{ID: g.ID, Name: g.Name, Node: g.Node, Role: g.Role})
	}
	for _, sw := range t.Switches {
		tl.Switches = append(tl.Switches, timeline.Switch{ID: sw.ID, Name: sw.Name, Kind: sw.Kind, Node: sw.Node})
	}
	for _, l := range t.Links {
		tl.Links = append(tl.Links, timeline.Link{ID: l.ID, From: l.From, To: l.To, Bandwidth: l.Bandwidth, Latency: l.Latency})
	}
	return tl
}

// task is one node of a round's dependency graph: a span on a device's
// compute stream, a message, or a join that only waits.
type task struct {
	kind    taskKind
	span    timeline.Span // compute: the template; its End is the duration
	src     int           // send: endpoints, size, label
	dst     int
	bytes   units.Bytes
	phase   string
	waiting int
	next    []int
	done    units.Time
}

type taskKind uint8

const (
	compute taskKind = iota
	send
	join
)

// runner builds and plays the graph.
type runner struct {
	c     Config
	p     Plan
	eng   *engine.Engine
	net   *fabric.Network
	tl    *timeline.Timeline
	tasks []task
	gpuAt []units.Time // when each device's compute stream is next free
	err   error
	// rounds[r] holds round r's gate (the join it starts after), its
	// clients' last tasks and, for split learning, the gather and the
	// task after which gradients leave node 0.
	rounds []roundTasks
}

type roundTasks struct {
	gate, gather, serverDone int
	last                     []int
}

func (r *runner) add(t task, deps ...int) int {
	id := len(r.tasks)
	for _, d := range deps {
		if d >= 0 {
			r.tasks[d].next = append(r.tasks[d].next, id)
			t.waiting++
		}
	}
	r.tasks = append(r.tasks, t)
	return id
}

func (r *runner) compute(gpu int, kind timeline.Kind, d units.Time, round, micro, stage int, dep int) int {
	label := "F"
	if kind == timeline.Backward {
		label = "B"
	}
	label += strconv.Itoa(round)
	return r.add(task{kind: compute, span: timeline.Span{GPU: gpu, Kind: kind, Iteration: round, Microbatch: micro,
		Stage: stage, Label: label, End: d}}, dep)
}

func (r *runner) message(src, dst int, b units.Bytes, phase string, round int, deps ...int) int {
	return r.add(task{kind: send, src: src, dst: dst, bytes: b, phase: phase, span: timeline.Span{Iteration: round}}, deps...)
}

// build adds every round's tasks, each round after the previous one's
// last client.
func (r *runner) build() {
	gate := r.add(task{kind: join})
	for k := 0; k < r.c.Rounds; k++ {
		var rt roundTasks
		if r.c.Mode == ModeFedAvg {
			rt = r.fedAvgRound(k, gate)
		} else {
			rt = r.splitRound(k, gate)
		}
		rt.gate = gate
		gate = r.add(task{kind: join}, rt.last...)
		r.rounds = append(r.rounds, rt)
	}
	// Collect the roots first: starting one releases others, which must
	// not be started twice.
	var roots []int
	for id := range r.tasks {
		if r.tasks[id].waiting == 0 {
			roots = append(roots, id)
		}
	}
	r.eng.At(0, func() {
		for _, id := range roots {
			r.start(id)
		}
	})
}

// splitRound: clients forward and upload; the chain forward, then
// backward; gradients down; clients backward.
func (r *runner) splitRound(k, gate int) roundTasks {
	n, p := len(r.c.Devices), r.p
	node := func(j int) int { return n + j }
	ups := make([]int, n)
	for i := 0; i < n; i++ {
		f := r.compute(i, timeline.Forward, p.Forward[i], k, 0, 0, gate)
		ups[i] = r.message(i, node(0), p.Up, "activations", k, f)
	}
	rt := roundTasks{gather: r.add(task{kind: join}, ups...)}
	prev := rt.gather
	h := len(p.Nodes)
	for j := 0; j < h; j++ {
		prev = r.compute(node(j), timeline.Forward, p.NodeForward[j], k, 0, j+1, prev)
		if j+1 < h {
			prev = r.message(node(j), node(j+1), p.Hop[j], "activations", k, prev)
		}
	}
	for j := h - 1; j >= 0; j-- {
		prev = r.compute(node(j), timeline.Backward, p.NodeBackward[j], k, 0, j+1, prev)
		if j > 0 {
			prev = r.message(node(j), node(j-1), p.Hop[j-1], "gradients", k, prev)
		}
	}
	rt.serverDone = prev
	for i := 0; i < n; i++ {
		d := r.message(node(0), i, p.Down, "gradients", k, prev)
		rt.last = append(rt.last, r.compute(i, timeline.Backward, p.Backward[i], k, 0, 0, d))
	}
	return rt
}

// fedAvgRound: every client downloads the model, trains LocalSteps steps
// on its own copy and uploads its weights to compute node 0.
func (r *runner) fedAvgRound(k, gate int) roundTasks {
	n, p := len(r.c.Devices), r.p
	rt := roundTasks{gather: -1, serverDone: -1}
	for i := 0; i < n; i++ {
		prev := r.message(n, i, p.Down, "model", k, gate)
		for s := 0; s < r.c.LocalSteps; s++ {
			prev = r.compute(i, timeline.Forward, p.Forward[i], k, s, 0, prev)
			prev = r.compute(i, timeline.Backward, p.Backward[i], k, s, 0, prev)
		}
		rt.last = append(rt.last, r.message(i, n, p.Up, "weights", k, prev))
	}
	return rt
}

func (r *runner) start(id int) {
	t := &r.tasks[id]
	switch t.kind {
	case join:
		r.finish(id)
	case compute:
		s := t.span
		s.Start = max(r.eng.Now(), r.gpuAt[s.GPU])
		s.End += s.Start
		r.gpuAt[s.GPU] = s.End
		r.tl.Spans = append(r.tl.Spans, s)
		r.eng.At(s.End, func() { r.finish(id) })
	case send:
		slot := len(r.tl.Transfers)
		r.tl.Transfers = append(r.tl.Transfers, timeline.Transfer{Src: t.src, Dst: t.dst, Bytes: t.bytes,
			Collective: -1, Step: t.span.Iteration, Phase: t.phase, Start: r.eng.Now()})
		err := r.net.Send(t.src, t.dst, t.bytes, func(m *fabric.Message) {
			x := &r.tl.Transfers[slot]
			x.Path, x.End, x.Rates = m.Path, m.End, slices.Clone(m.Rates)
			r.finish(id)
		})
		if err != nil && r.err == nil {
			r.err = err
		}
	}
}

func (r *runner) finish(id int) {
	t := &r.tasks[id]
	t.done = r.eng.Now()
	for _, n := range t.next {
		r.tasks[n].waiting--
		if r.tasks[n].waiting == 0 {
			r.start(n)
		}
	}
}

// record completes the timeline: spans in order, memory, rounds.
func (r *runner) record() {
	tl := r.tl
	slices.SortStableFunc(tl.Spans, func(a, b timeline.Span) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU))
	})
	n := len(r.c.Devices)
	sp := &timeline.Split{Mode: r.c.Mode, Model: r.c.Model.Name, ClientLayers: [2]int{0, r.c.Cut},
		ComputeGPU: r.c.Compute.Name}
	if n > 0 {
		sp.Device = r.c.Devices[0].Name
	}
	if r.c.Mode == ModeFedAvg {
		sp.ClientLayers[1] = len(r.c.Model.Layers)
	}
	for i := 0; i < n; i++ {
		sp.Clients = append(sp.Clients, i)
		sp.Speeds = append(sp.Speeds, r.c.speed(i))
	}
	for j := 0; j < r.c.Hops; j++ {
		sp.Compute = append(sp.Compute, n+j)
	}
	sp.NodeLayers = r.p.Nodes
	for k, rt := range r.rounds {
		round := timeline.Round{Index: k, Start: r.tasks[rt.gate].done}
		for i, id := range rt.last {
			if d := r.tasks[id].done; d > round.End {
				round.End, round.Slowest = d, i
			}
		}
		if rt.gather >= 0 {
			round.ServerStart, round.ServerEnd = r.tasks[rt.gather].done, r.tasks[rt.serverDone].done
		}
		sp.Rounds = append(sp.Rounds, round)
	}
	tl.Split = sp
	tl.Memory = r.memory()
}

// memory is each actor's memory: its model state for the whole run, and
// its activations from each forward's start to the matching backward's
// end.
func (r *runner) memory() []timeline.Memory {
	n := len(r.c.Devices)
	out := make([]timeline.Memory, len(r.tl.GPUs))
	for g := range out {
		use, capacity := r.p.ClientMemory, r.c.Compute.HBM
		if g < n {
			capacity = r.c.Devices[g].Memory
		} else if r.c.Mode == ModeSplit {
			use = r.p.NodeMemory[g-n]
		} else {
			use = Usage{} // the aggregator's copy of the model is not charged
		}
		m := timeline.Memory{GPU: g, Capacity: capacity,
			Parameters:      units.Bytes(BytesPerElement * use.Params),
			Gradients:       units.Bytes(BytesPerElement * use.Params),
			OptimizerStates: use.State - units.Bytes(2*BytesPerElement*use.Params),
			Activations:     []timeline.MemoryPoint{}}
		type key struct{ it, mb int }
		open := map[key]bool{}
		for _, s := range r.tl.Spans {
			if s.GPU != g || use.Activations == 0 {
				continue
			}
			k := key{s.Iteration, s.Microbatch}
			switch {
			case s.Kind == timeline.Forward && !open[k]:
				open[k] = true
				m.Activations = append(m.Activations, timeline.MemoryPoint{At: s.Start, Bytes: use.Activations, InFlight: 1})
			case s.Kind == timeline.Backward && open[k]:
				delete(open, k)
				m.Activations = append(m.Activations, timeline.MemoryPoint{At: s.End, Bytes: 0})
			}
		}
		m.Peak = m.Static()
		if len(m.Activations) > 0 {
			m.Peak += use.Activations
			m.PeakInFlight = 1
		}
		out[g] = m
	}
	return out
}
