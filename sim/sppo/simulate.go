package sppo

import (
	"sort"
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// plan is a run's costs, before any op is laid out: per stage and chunk.
type plan struct {
	stages, chunks int
	fwd, bwd       [][]units.Time  // [stage][chunk]
	act            [][]units.Bytes // [stage][chunk]: A_c
	off            [][]units.Bytes // [stage][chunk]: f·A_c, 0 for the last chunk
	hidden         []units.Bytes   // [chunk]: 2·h·s_c, a message between stages
	states         []units.Bytes   // [stage]: model states
	gpu            hw.GPU
	pcie           topo.Port
	nv             topo.Port
	host           units.Bytes
}

// newPlan prices s's chunks on its stages (the package doc's formulas).
func newPlan(s *scenario.Scenario) (*plan, error) {
	y := SettingsOf(s)
	m, err := s.Model.Resolve()
	if err != nil {
		return nil, err
	}
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		return nil, err
	}
	pl, err := hw.LookupLink(y.PCIe)
	if err != nil {
		return nil, err
	}
	intra := s.Cluster.Intra
	if intra == "" {
		intra = gpu.Link
	}
	nv, err := hw.LookupLink(intra)
	if err != nil {
		return nil, err
	}
	S, C := s.NumGPUs(), y.Chunks
	p := &plan{stages: S, chunks: C, gpu: gpu, host: y.HostMemory,
		pcie: topo.Port{Bandwidth: pl.Effective(), Latency: pl.Latency, Kind: string(pl.Kind)},
		nv:   topo.Port{Bandwidth: nv.Effective(), Latency: nv.Latency, Kind: string(nv.Kind)}}
	params := workload.Params(m)
	h, pl1 := float64(m.Hidden), float64(params.PerLayer)
	for st := range S {
		layers := m.Layers/S + b2i(st < m.Layers%S)
		psi := float64(layers) * pl1
		if st == 0 {
			psi += float64(params.Embedding)
		}
		if st == S-1 {
			psi += float64(params.Head + params.FinalNorm)
		}
		p.states = append(p.states, units.Bytes(workload.ModelStateBytes(psi, 0, 1).Total()))
		var f, b []units.Time
		var a, o []units.Bytes
		prefix := 0
		for c := range C {
			sc := y.Tokens/C + b2i(c < y.Tokens%C)
			tok, pre := float64(sc), float64(prefix)
			flops := float64(layers) * (2*pl1*tok + 4*h*tok*(pre+tok/2))
			if st == S-1 {
				flops += 2 * h * float64(m.Vocab) * tok
			}
			f = append(f, max(1, gpu.ComputeTime(flops, 0)))
			b = append(b, max(1, gpu.ComputeTime(2*flops, 0)))
			ac := units.Bytes(float64(layers) * 34 * h * tok)
			a = append(a, ac)
			oc := units.Bytes(0)
			if c < C-1 {
				oc = units.Bytes(y.Offload * float64(ac))
			}
			o = append(o, oc)
			if st == 0 {
				p.hidden = append(p.hidden, units.Bytes(2*h*tok))
			}
			prefix += sc
		}
		p.fwd, p.bwd, p.act, p.off = append(p.fwd, f), append(p.bwd, b), append(p.act, a), append(p.off, o)
	}
	return p, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// topology is the stages' GPUs on the node's switch and, for each, a CPU
// lane (its host memory) joined to the switch over its PCIe link.
func (p *plan) topology() *topo.Topology {
	S := p.stages
	t := topo.Switched(2*S, p.nv)
	for c := 0; c < S; c++ {
		id := S + c
		t.GPUs[id].Role, t.GPUs[id].Name = topo.RoleCPU, "host "+strconv.Itoa(c)
		for i := range t.Links {
			if l := &t.Links[i]; l.From == id || l.To == id {
				l.Bandwidth, l.Kind, l.Latency = p.pcie.Bandwidth, p.pcie.Kind, 0
				if l.From == id {
					l.Latency = p.pcie.Latency
				}
			}
		}
	}
	return t
}

// run is one simulation: the graph and each op's id.
type run struct {
	p              *plan
	g              *taskgraph.Graph
	f, b, off, rel [][]int // op ids [stage][chunk]; −1 none
	sendF, sendB   [][]int
	done           []units.Time // by op id: when it finished
	p2p            taskgraph.Channel
}

// Simulate plays the pipeline (see the package doc) and returns its
// timeline, which passes timeline.Validate.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	p, err := newPlan(&s)
	if err != nil {
		return nil, err
	}
	r := &run{p: p, g: taskgraph.New(p.topology(), s.Title())}
	r.g.ConcurrentMessages()
	r.p2p = r.g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "p2p", Ranks: 2 * p.stages}, taskgraph.Identity(2*p.stages), taskgraph.PointToPoint)
	r.build()
	r.done = make([]units.Time, r.g.Len())
	r.g.OnFinish(func(id int) { r.done[id] = r.g.Now() })
	return r.g.Play(Name, func() {
		tl := r.g.Timeline()
		tl.Memory = r.memory()
		r.extra(tl)
	})
}

func grid(S, C int) [][]int {
	out := make([][]int, S)
	for i := range out {
		out[i] = make([]int, C)
		for j := range out[i] {
			out[i][j] = -1
		}
	}
	return out
}

// deps is the ids ≥ 0 among ids.
func deps(ids ...int) []int {
	out := ids[:0]
	for _, id := range ids {
		if id >= 0 {
			out = append(out, id)
		}
	}
	return out
}

// at is ids[i], or −1 out of range.
func at(ids []int, i int) int {
	if i < 0 || i >= len(ids) {
		return -1
	}
	return ids[i]
}

// build lays out the forwards in chunk order, each chunk's offload after
// it, then the backwards in reverse order, each after its reload.
func (r *run) build() {
	p, S, C := r.p, r.p.stages, r.p.chunks
	r.f, r.b, r.off, r.rel, r.sendF, r.sendB = grid(S, C), grid(S, C), grid(S, C), grid(S, C), grid(S, C), grid(S, C)
	msg := func(src, dst int, bytes units.Bytes, phase string, d ...int) int {
		return r.g.AddMessage(r.p2p, collective.Transfer{Src: src, Dst: dst, Bytes: bytes, Phase: phase}, deps(d...)...)
	}
	for c := range C {
		for st := range S {
			prev := -1
			if st > 0 {
				prev = r.sendF[st-1][c]
			}
			r.f[st][c] = r.g.AddCompute(timeline.Span{GPU: st, Kind: timeline.Forward, Microbatch: c, Stage: st, Label: "F" + strconv.Itoa(c)},
				p.fwd[st][c], deps(at(r.f[st], c-1), prev, at(r.off[st], c-2))...)
			if st < S-1 {
				r.sendF[st][c] = msg(st, st+1, p.hidden[c], "forward", r.f[st][c])
			}
			if p.off[st][c] > 0 {
				r.off[st][c] = msg(st, S+st, p.off[st][c], "offload", r.f[st][c], at(r.off[st], c-1))
			}
		}
	}
	for c := C - 1; c >= 0; c-- {
		for st := S - 1; st >= 0; st-- {
			if p.off[st][c] > 0 {
				r.rel[st][c] = msg(S+st, st, p.off[st][c], "reload", r.off[st][c], at(r.rel[st], c+1), at(r.b[st], c+2), r.f[st][C-1])
			}
			next := -1
			if st < S-1 {
				next = r.sendB[st+1][c]
			}
			r.b[st][c] = r.g.AddCompute(timeline.Span{GPU: st, Kind: timeline.Backward, Microbatch: c, Stage: st, Label: "B" + strconv.Itoa(c)},
				p.bwd[st][c], deps(r.f[st][C-1], at(r.b[st], c+1), next, r.rel[st][c])...)
			if st > 0 {
				r.sendB[st][c] = msg(st, st-1, p.hidden[c], "backward", r.b[st][c])
			}
		}
	}
}

// memory builds each GPU's and host's memory series from the finished
// run (the package doc's accounting): changes sorted by time, summed.
func (r *run) memory() []timeline.Memory {
	p, S, C := r.p, r.p.stages, r.p.chunks
	type change struct {
		at units.Time
		d  units.Bytes
	}
	out := make([]timeline.Memory, 2*S)
	for st := range S {
		var gpu, host []change
		for c := range C {
			a, o := p.act[st][c], p.off[st][c]
			gpu = append(gpu, change{r.done[r.f[st][c]] - p.fwd[st][c], a}, change{r.done[r.b[st][c]], -a})
			if o > 0 {
				start := max(r.done[r.off[st][c]], r.done[r.f[st][C-1]], r.doneOf(at(r.rel[st], c+1)), r.doneOf(at(r.b[st], c+2)))
				gpu = append(gpu, change{r.done[r.off[st][c]], -o}, change{start, o})
				host = append(host, change{r.done[r.off[st][c]], o}, change{r.done[r.rel[st][c]], -o})
			}
		}
		ws := workload.ModelStateBytes(1, 0, 1)
		states := float64(p.states[st]) / ws.Total()
		out[st] = timeline.Memory{GPU: st, Capacity: p.gpu.HBM, Parameters: units.Bytes(states * ws.Parameters),
			Gradients: units.Bytes(states * ws.Gradients), OptimizerStates: units.Bytes(states * ws.OptimizerStates)}
		out[S+st] = timeline.Memory{GPU: S + st, Capacity: p.host}
		for i, ch := range [][]change{gpu, host} {
			sort.SliceStable(ch, func(a, b int) bool { return ch[a].at < ch[b].at })
			m := &out[st+i*S]
			var level units.Bytes
			for _, x := range ch {
				level += x.d
				pt := timeline.MemoryPoint{At: x.at, Bytes: level}
				if n := len(m.Activations); n > 0 && m.Activations[n-1].At == x.at {
					m.Activations[n-1] = pt
				} else {
					m.Activations = append(m.Activations, pt)
				}
			}
			for _, pt := range m.Activations {
				m.Peak = max(m.Peak, pt.Bytes)
			}
		}
		out[st].Peak += p.states[st]
	}
	return out
}

// doneOf is when op id finished, 0 for none.
func (r *run) doneOf(id int) units.Time {
	if id < 0 {
		return 0
	}
	return r.done[id]
}
