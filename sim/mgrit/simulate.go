package mgrit

import (
	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// run is one simulation's graph and layout.
type run struct {
	y      Settings
	g      *taskgraph.Graph
	p2p    taskgraph.Channel
	gpus   int
	layers []int // ℓ_g
	coarse []int // c_g = ℓ_g / m
}

// Simulate plays the forward solve, then the backward solve (see the
// package doc), and returns the timeline, which passes timeline.Validate.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	y, n := SettingsOf(&s), s.NumGPUs()
	t := topo.Switched(n, topo.Port{Bandwidth: s.Link.Bandwidth, Latency: s.Link.Latency, Kind: "ideal"})
	r := &run{y: y, g: taskgraph.New(t, s.Title()), gpus: n}
	r.p2p = r.g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "p2p", Ranks: n}, taskgraph.Identity(n), taskgraph.PointToPoint)
	for g := range n {
		l := y.Layers/n + b2i(g < y.Layers%n)
		r.layers, r.coarse = append(r.layers, l), append(r.coarse, max(1, l/y.Coarsen))
	}
	end := r.solve(timeline.Forward, s.Compute.Forward, -1)
	r.solve(timeline.Backward, s.Compute.Backward, end)
	return r.g.Play(Name, func() { r.extra(&s) })
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// solve lays out one solve (kind Forward or Backward, a layer step of t)
// after op after (−1: at the start) and returns its last op. The
// backward visits the GPUs in reverse order. Iteration K is the last
// F-relaxation alone.
func (r *run) solve(kind timeline.Kind, t units.Time, after int) int {
	n, y := r.gpus, r.y
	relaxed, done := make([]int, n), make([]int, n)
	barrier := after
	for k := 0; ; k++ {
		for i := range n {
			relaxed[i] = r.compute(kind, i, k, "F-relax", t, true, barrier, -1)
		}
		if k == y.Iterations {
			return r.g.AddJoin(relaxed...)
		}
		// FCF: each GPU's first coarse point waits for the state the
		// previous GPU's first F-relaxation ends with.
		for i, prev := 0, -1; y.Relax == "fcf" && i < n; i++ {
			from := -1
			if i > 0 {
				from = r.send(kind, i-1, "C-relax", prev)
			}
			prev = relaxed[i]
			c := r.compute(kind, i, k, "C-relax", t, false, relaxed[i], from)
			relaxed[i] = r.compute(kind, i, k, "F-relax", t, true, c, -1)
		}
		prev := -1
		for i := range n {
			done[i] = r.compute(kind, i, k, "coarse", t, false, relaxed[i], prev)
			if i < n-1 {
				prev = r.send(kind, i, "coarse", done[i])
			}
		}
		barrier = r.g.AddJoin(done...)
	}
}

// gpu is the GPU at position i of a solve's order.
func (r *run) gpu(kind timeline.Kind, i int) int {
	if kind == timeline.Backward {
		return r.gpus - 1 - i
	}
	return i
}

// compute adds a sweep of iteration k on the GPU at position i: its fine
// steps (ℓ − c)·t when fine, else its coarse ones c·t; it waits for a
// and b (−1: none).
//
//go:noinline
func (r *run) compute(kind timeline.Kind, i, k int, label string, t units.Time, fine bool, a, b int) int {
	g := r.gpu(kind, i)
	steps := r.coarse[g]
	if fine {
		steps = r.layers[g] - steps
	}
	return r.g.AddCompute(timeline.Span{GPU: g, Kind: kind, Stage: g, Microbatch: k, Label: label}, max(1, units.Time(steps)*t), deps(a, b)...)
}

// send adds the message from the GPU at position i to the next after dep.
//
//go:noinline
func (r *run) send(kind timeline.Kind, i int, phase string, dep int) int {
	return r.g.AddMessage(r.p2p, collective.Transfer{Src: r.gpu(kind, i), Dst: r.gpu(kind, i+1), Bytes: r.y.State, Phase: phase}, dep)
}

// deps is the ids ≥ 0 among a and b.
func deps(a, b int) []int {
	out := make([]int, 0, 2)
	for _, id := range [2]int{a, b} {
		if id >= 0 {
			out = append(out, id)
		}
	}
	return out
}
