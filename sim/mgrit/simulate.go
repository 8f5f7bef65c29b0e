package mgrit

import (
	"strconv"

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
// after op after (−1: at the start) and returns its barrier. The
// backward visits the GPUs in reverse order.
func (r *run) solve(kind timeline.Kind, t units.Time, after int) int {
	n, y := r.gpus, r.y
	gpu := func(i int) int {
		if kind == timeline.Backward {
			return n - 1 - i
		}
		return i
	}
	span := func(i int, label string, k int) timeline.Span {
		return timeline.Span{GPU: gpu(i), Kind: kind, Stage: gpu(i), Microbatch: k, Label: label + " " + strconv.Itoa(k+1)}
	}
	msg := func(i int, phase string, dep int) int {
		return r.g.AddMessage(r.p2p, collective.Transfer{Src: gpu(i), Dst: gpu(i + 1), Bytes: y.State, Phase: phase}, dep)
	}
	barrier := after
	for k := range y.Iterations {
		relaxed := make([]int, n)
		var sendF []int
		for i := range n {
			fine := units.Time(r.layers[gpu(i)]-r.coarse[gpu(i)]) * t
			relaxed[i] = r.g.AddCompute(span(i, "F-relax", k), max(1, fine), deps(barrier)...)
			sendF = append(sendF, -1)
			if y.Relax == "fcf" && i < n-1 {
				sendF[i] = msg(i, "C-relax", relaxed[i])
			}
		}
		if y.Relax == "fcf" {
			for i := range n {
				c := r.g.AddCompute(span(i, "C-relax", k), units.Time(r.coarse[gpu(i)])*t, deps(relaxed[i], at(sendF, i-1))...)
				relaxed[i] = r.g.AddCompute(span(i, "F-relax", k), max(1, units.Time(r.layers[gpu(i)]-r.coarse[gpu(i)])*t), c)
			}
		}
		var done []int
		prev := -1
		for i := range n {
			c := r.g.AddCompute(span(i, "coarse", k), units.Time(r.coarse[gpu(i)])*t, deps(relaxed[i], prev)...)
			done = append(done, c)
			if i < n-1 {
				prev = msg(i, "coarse", c)
			}
		}
		barrier = r.g.AddJoin(done...)
	}
	var last []int
	for i := range n {
		last = append(last, r.g.AddCompute(span(i, "F-relax", y.Iterations), max(1, units.Time(r.layers[gpu(i)]-r.coarse[gpu(i)])*t), barrier))
	}
	return r.g.AddJoin(last...)
}

// deps is the ids ≥ 0 among ids.
func deps(ids ...int) []int {
	out := ids[:0:0]
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
