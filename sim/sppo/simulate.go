package sppo

import (
	"sort"
	"strconv"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// plan is a run's costs, before any op is laid out.
type plan struct {
	stages, chunks                   int
	layers                           []int // by stage
	tokens, prefix                   []int // by chunk: s_c, p_c
	states                           []units.Bytes
	perLayer, hidden, vocab, offload float64
	gpu                              hw.GPU
	pcie, nv                         topo.Port
	host                             units.Bytes
}

// newPlan prices s's chunks on its stages (the package doc's formulas).
func newPlan(s *scenario.Scenario) (*plan, error) {
	y := SettingsOf(s)
	m, err := s.Model.Resolve()
	if err != nil {
		return nil, err
	}
	srv, err := cluster.LookupServer(s.Cluster.GPU, s.Cluster.Intra, y.PCIe)
	if err != nil {
		return nil, err
	}
	S, C := s.NumGPUs(), y.Chunks
	w := workload.Params(m)
	p := &plan{stages: S, chunks: C, gpu: srv.GPU, host: y.HostMemory, pcie: srv.PCIe, nv: srv.NV,
		perLayer: float64(w.PerLayer), hidden: float64(m.Hidden), vocab: float64(m.Vocab), offload: y.Offload}
	for c := range C {
		p.prefix = append(p.prefix, c*(y.Tokens/C)+min(c, y.Tokens%C))
		p.tokens = append(p.tokens, y.Tokens/C+b2i(c < y.Tokens%C))
	}
	for st := range S {
		l := m.Layers/S + b2i(st < m.Layers%S)
		psi := float64(l) * p.perLayer
		if st == 0 {
			psi += float64(w.Embedding)
		}
		if st == S-1 {
			psi += float64(w.Head + w.FinalNorm)
		}
		p.layers = append(p.layers, l)
		p.states = append(p.states, units.Bytes(workload.ModelStateBytes(psi, 0, 1).Total()))
	}
	return p, nil
}

// time is stage st's forward (k = 1) or backward (k = 2) of chunk c:
// k·ℓ·(2·P_layer·s_c + 4·h·s_c·(p_c + s_c/2)), plus k·2·h·V·s_c on the
// last stage, at the GPU's peak × efficiency.
func (p *plan) time(st, c int, k float64) units.Time {
	tok := float64(p.tokens[c])
	flops := float64(p.layers[st]) * (2*p.perLayer*tok + 4*p.hidden*tok*(float64(p.prefix[c])+tok/2))
	if st == p.stages-1 {
		flops += 2 * p.hidden * p.vocab * tok
	}
	return max(1, p.gpu.ComputeTime(k*flops, 0))
}

// act is A_c = ℓ·34·h·s_c, stage st's activations of chunk c.
func (p *plan) act(st, c int) units.Bytes {
	return units.Bytes(float64(p.layers[st]) * 34 * p.hidden * float64(p.tokens[c]))
}

// off is f·A_c, the bytes stage st offloads of chunk c (none of the last).
func (p *plan) off(st, c int) units.Bytes {
	if c == p.chunks-1 {
		return 0
	}
	return units.Bytes(p.offload * float64(p.act(st, c)))
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

// run is one simulation: the graph and each op's id, by stage·chunks +
// chunk (−1: none).
type run struct {
	p                            *plan
	g                            *taskgraph.Graph
	f, b, off, rel, sendF, sendB []int
	done                         []units.Time // by op id: when it finished
	hostPeak                     units.Bytes  // the most a host held
	p2p                          taskgraph.Channel
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

// at is ids[st·chunks + c], or −1 when st or c is out of range.
//
//go:noinline
func (r *run) at(ids []int, st, c int) int {
	if st < 0 || st >= r.p.stages || c < 0 || c >= r.p.chunks {
		return -1
	}
	return ids[st*r.p.chunks+c]
}

// compute adds stage st's forward (or backward) of chunk c after deps
// (−1s skipped).
//
//go:noinline
func (r *run) compute(back bool, st, c int, deps ...int) int {
	k, f, label := timeline.Forward, 1.0, "F"
	if back {
		k, f, label = timeline.Backward, 2, "B"
	}
	return r.g.AddCompute(timeline.Span{GPU: st, Kind: k, Microbatch: c, Stage: st, Label: label + strconv.Itoa(c)}, r.p.time(st, c, f), keep(deps)...)
}

// send adds a message of bytes from vertex src to dst after deps (−1s
// skipped).
//
//go:noinline
func (r *run) send(src, dst int, bytes units.Bytes, phase collective.Phase, deps ...int) int {
	return r.g.AddMessage(r.p2p, collective.Transfer{Src: src, Dst: dst, Bytes: bytes, Phase: phase}, keep(deps)...)
}

// keep is the ids ≥ 0 of ids, in place.
func keep(ids []int) []int {
	out := ids[:0]
	for _, id := range ids {
		if id >= 0 {
			out = append(out, id)
		}
	}
	return out
}

// build lays out the forwards in chunk order, each chunk's offload after
// it, then the backwards in reverse order, each after its reload.
func (r *run) build() {
	p, S, C := r.p, r.p.stages, r.p.chunks
	ids := make([]int, 6*S*C)
	for i := range ids {
		ids[i] = -1
	}
	r.f, r.b, r.off, r.rel, r.sendF, r.sendB = ids[:S*C], ids[S*C:2*S*C], ids[2*S*C:3*S*C], ids[3*S*C:4*S*C], ids[4*S*C:5*S*C], ids[5*S*C:]
	for c := range C {
		for st := range S {
			i := st*C + c
			r.f[i] = r.compute(false, st, c, r.at(r.f, st, c-1), r.at(r.sendF, st-1, c), r.at(r.off, st, c-2))
			if st < S-1 {
				r.sendF[i] = r.send(st, st+1, units.Bytes(2*p.hidden*float64(p.tokens[c])), collective.PhaseForward, r.f[i])
			}
			if p.off(st, c) > 0 {
				r.off[i] = r.send(st, S+st, p.off(st, c), collective.PhaseOffload, r.f[i], r.at(r.off, st, c-1))
			}
		}
	}
	for c := C - 1; c >= 0; c-- {
		for st := S - 1; st >= 0; st-- {
			i, last := st*C+c, st*C+C-1
			if p.off(st, c) > 0 {
				r.rel[i] = r.send(S+st, st, p.off(st, c), collective.PhaseReload, r.off[i], r.at(r.rel, st, c+1), r.at(r.b, st, c+2), r.f[last])
			}
			r.b[i] = r.compute(true, st, c, r.f[last], r.at(r.b, st, c+1), r.at(r.sendB, st+1, c), r.rel[i])
			if st > 0 {
				r.sendB[i] = r.send(st, st-1, units.Bytes(2*p.hidden*float64(p.tokens[c])), collective.PhaseBackward, r.b[i])
			}
		}
	}
}

// change is a step of a memory series: d bytes at a time.
type change struct {
	at units.Time
	d  units.Bytes
}

// memory builds each GPU's memory series from the finished run (the
// package doc's accounting): changes sorted by time, summed; and the
// hosts' highest level (hostPeak). The hosts get no series of their own:
// the picture's memory panel is the GPUs' HBM.
func (r *run) memory() []timeline.Memory {
	p, S, C := r.p, r.p.stages, r.p.chunks
	out := make([]timeline.Memory, S)
	ws := workload.ModelStateBytes(1, 0, 1)
	for st := range S {
		var gpu, host []change
		for c := range C {
			i, a, o := st*C+c, p.act(st, c), p.off(st, c)
			gpu = append(gpu, change{r.done[r.f[i]] - p.time(st, c, 1), a}, change{r.done[r.b[i]], -a})
			if o > 0 {
				start := max(r.done[r.off[i]], r.done[r.f[st*C+C-1]], r.doneOf(r.at(r.rel, st, c+1)), r.doneOf(r.at(r.b, st, c+2)))
				gpu = append(gpu, change{r.done[r.off[i]], -o}, change{start, o})
				host = append(host, change{r.done[r.off[i]], o}, change{r.done[r.rel[i]], -o})
			}
		}
		k := float64(p.states[st]) / ws.Total()
		out[st] = timeline.Memory{GPU: st, Capacity: p.gpu.HBM, Parameters: units.Bytes(k * ws.Parameters),
			Gradients: units.Bytes(k * ws.Gradients), OptimizerStates: units.Bytes(k * ws.OptimizerStates)}
		series(&out[st], gpu)
		var h timeline.Memory
		series(&h, host)
		r.hostPeak = max(r.hostPeak, h.Peak)
		out[st].Peak += out[st].Static()
	}
	return out
}

// series sets m's activations to the running sum of ch, one point an
// instant, and its peak to their highest.
func series(m *timeline.Memory, ch []change) {
	sort.SliceStable(ch, func(a, b int) bool { return ch[a].at < ch[b].at })
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

// doneOf is when op id finished, 0 for none.
func (r *run) doneOf(id int) units.Time {
	if id < 0 {
		return 0
	}
	return r.done[id]
}
