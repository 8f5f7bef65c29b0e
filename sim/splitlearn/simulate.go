package splitlearn

import (
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Simulate runs the configuration's rounds and returns the timeline: a
// span per forward and backward on every client and compute node, a
// transfer per message on the links, each actor's memory, and the rounds
// (Timeline.Split). The result passes timeline.Validate.
//
// The rounds are one task graph (package taskgraph) whose messages go
// concurrently: a client's uplink and the compute nodes' ports carry
// several messages at once, sharing the links.
func Simulate(c Config) (*timeline.Timeline, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	t := Topology(c)
	g := taskgraph.New(t, c.Title)
	g.ConcurrentMessages()
	tl := g.Timeline()
	// A run's lists are empty, never missing, in its JSON.
	tl.Spans, tl.Transfers, tl.Collectives = []timeline.Span{}, timeline.TransfersOf(), []timeline.Collective{}
	vertices := make([]int, len(t.GPUs))
	for i := range vertices {
		vertices[i] = i
	}
	r := &runner{c: c, p: NewPlan(c), g: g,
		msgs: g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "p2p", Ranks: len(t.GPUs)}, vertices, taskgraph.PointToPoint)}
	r.build()
	r.done = make([]units.Time, g.Len())
	g.OnFinish(func(id int) { r.done[id] = g.Now() })
	return g.Play("splitlearn", r.record)
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

// runner lays out the rounds on the graph and reads the run back.
type runner struct {
	c    Config
	p    Plan
	g    *taskgraph.Graph
	msgs taskgraph.Channel // every message
	done []units.Time      // by op: when it finished
	// rounds[r] holds round r's gate (the join it starts after; none, −1,
	// for the first round), its clients' last ops and, for split learning,
	// the gather and the op after which gradients leave node 0.
	rounds []roundTasks
}

type roundTasks struct {
	gate, gather, serverDone int
	last                     []int
}

func (r *runner) compute(gpu int, kind timeline.Kind, d units.Time, round, micro, stage int, dep int) int {
	label := "F"
	if kind == timeline.Backward {
		label = "B"
	}
	label += strconv.Itoa(round)
	return r.g.AddCompute(timeline.Span{GPU: gpu, Kind: kind, Iteration: round, Microbatch: micro, Stage: stage, Label: label}, d, after(dep)...)
}

func (r *runner) message(src, dst int, b units.Bytes, phase collective.Phase, round int, dep int) int {
	return r.g.AddMessage(r.msgs, collective.Transfer{Src: src, Dst: dst, Bytes: b, Phase: phase, Step: round}, after(dep)...)
}

// after is the dependency list of an op that waits for dep, or for
// nothing when dep is −1.
func after(dep int) []int {
	if dep < 0 {
		return nil
	}
	return []int{dep}
}

// build adds every round's ops, each round after the previous one's last
// client. The first round waits for nothing: its ops start the run (a
// join before them would start them twice, see taskgraph's execute).
func (r *runner) build() {
	gate := -1
	for k := 0; k < r.c.Rounds; k++ {
		var rt roundTasks
		if r.c.Mode == ModeFedAvg {
			rt = r.fedAvgRound(k, gate)
		} else {
			rt = r.splitRound(k, gate)
		}
		rt.gate = gate
		gate = r.g.AddJoin(rt.last...)
		r.rounds = append(r.rounds, rt)
	}
}

// splitRound: clients forward and upload; the chain forward, then
// backward; gradients down; clients backward.
func (r *runner) splitRound(k, gate int) roundTasks {
	n, p := len(r.c.Devices), r.p
	node := func(j int) int { return n + j }
	ups := make([]int, n)
	for i := 0; i < n; i++ {
		f := r.compute(i, timeline.Forward, p.Forward[i], k, 0, 0, gate)
		ups[i] = r.message(i, node(0), p.Up, collective.PhaseActivations, k, f)
	}
	rt := roundTasks{gather: r.g.AddJoin(ups...)}
	prev := rt.gather
	h := len(p.Nodes)
	for j := 0; j < h; j++ {
		prev = r.compute(node(j), timeline.Forward, p.NodeForward[j], k, 0, j+1, prev)
		if j+1 < h {
			prev = r.message(node(j), node(j+1), p.Hop[j], collective.PhaseActivations, k, prev)
		}
	}
	for j := h - 1; j >= 0; j-- {
		prev = r.compute(node(j), timeline.Backward, p.NodeBackward[j], k, 0, j+1, prev)
		if j > 0 {
			prev = r.message(node(j), node(j-1), p.Hop[j-1], collective.PhaseGradients, k, prev)
		}
	}
	rt.serverDone = prev
	for i := 0; i < n; i++ {
		d := r.message(node(0), i, p.Down, collective.PhaseGradients, k, prev)
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
		prev := r.message(n, i, p.Down, collective.PhaseModel, k, gate)
		for s := 0; s < r.c.LocalSteps; s++ {
			prev = r.compute(i, timeline.Forward, p.Forward[i], k, s, 0, prev)
			prev = r.compute(i, timeline.Backward, p.Backward[i], k, s, 0, prev)
		}
		rt.last = append(rt.last, r.message(i, n, p.Up, collective.PhaseWeights, k, prev))
	}
	return rt
}

// record completes the timeline: memory, rounds.
func (r *runner) record() {
	tl := r.g.Timeline()
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
		round := timeline.Round{Index: k}
		if rt.gate >= 0 {
			round.Start = r.done[rt.gate]
		}
		for i, id := range rt.last {
			if d := r.done[id]; d > round.End {
				round.End, round.Slowest = d, i
			}
		}
		if rt.gather >= 0 {
			round.ServerStart, round.ServerEnd = r.done[rt.gather], r.done[rt.serverDone]
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
	tl := r.g.Timeline()
	out := make([]timeline.Memory, len(tl.GPUs))
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
		for _, s := range tl.Spans {
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
