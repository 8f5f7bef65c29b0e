package splitlearn

import "paraplay/sim/units"

// Usage is the memory a device needs for a share of the model.
type Usage struct {
	// Params is the parameters it holds.
	Params int64
	// State is StateBytesPerParam × Params: weights, gradients, Adam.
	State units.Bytes
	// Activations is what it keeps for the backward: BytesPerElement ×
	// samples × (the elements entering its first layer + every layer's
	// Stored).
	Activations units.Bytes
}

// Total is State + Activations.
func (u Usage) Total() units.Bytes { return u.State + u.Activations }

// Memory is what a device holding layers [from, to) of m needs to train
// them on samples samples at once.
func Memory(m Model, from, to, samples int) Usage {
	p := m.sum(from, to, func(l Layer) int64 { return l.Params })
	elems := m.In(from) + m.sum(from, to, func(l Layer) int64 { return l.Stored })
	return Usage{Params: p, State: units.Bytes(StateBytesPerParam * p),
		Activations: units.Bytes(BytesPerElement * int64(samples) * elems)}
}

// Partition cuts layers [from, len(m.Layers)) into hops contiguous,
// non-empty ranges that minimise the largest Memory of a range for
// samples samples (a min–max linear partition by dynamic programming, so
// the compute node that needs most needs as little as possible). Ties go
// to the earliest cut.
func Partition(m Model, from, hops, samples int) [][2]int {
	L := len(m.Layers)
	w := func(a, b int) units.Bytes { return Memory(m, a, b, samples).Total() }
	// best[k][j]: the smallest largest range covering [from, j) with k ranges.
	const inf = units.Bytes(1<<63 - 1)
	best := make([][]units.Bytes, hops+1)
	cut := make([][]int, hops+1)
	for k := range best {
		best[k] = make([]units.Bytes, L+1)
		cut[k] = make([]int, L+1)
		for j := range best[k] {
			best[k][j] = inf
		}
	}
	best[0][from] = 0
	for k := 1; k <= hops; k++ {
		for j := from + k; j <= L; j++ {
			for i := from + k - 1; i < j; i++ {
				if best[k-1][i] == inf {
					continue
				}
				if v := max(best[k-1][i], w(i, j)); v < best[k][j] {
					best[k][j], cut[k][j] = v, i
				}
			}
		}
	}
	out := make([][2]int, hops)
	j := L
	for k := hops; k >= 1; k-- {
		i := cut[k][j]
		out[k-1] = [2]int{i, j}
		j = i
	}
	return out
}

// Plan is the cost of every piece of a round, computed before the run:
// the simulator schedules these pieces, and the closed forms add them up.
type Plan struct {
	// Clients is the number of clients; Samples the server side's batch,
	// Clients × Batch.
	Clients, Samples int
	// Nodes are the compute nodes' layer ranges (split learning).
	Nodes [][2]int
	// Forward and Backward are each client's compute per round (per
	// local step for fedavg): FLOPs of its layers × Batch / (device
	// FLOP/s × speed); a backward costs twice the forward's FLOPs.
	Forward, Backward []units.Time
	// Up and Down are the bytes a client sends and receives per round:
	// the activations (gradients) at the cut for split learning, the
	// model's fp32 weights for fedavg.
	Up, Down units.Bytes
	// NodeForward and NodeBackward are each compute node's compute on the
	// whole batch: FLOPs of its layers × Samples / (peak × efficiency).
	NodeForward, NodeBackward []units.Time
	// Hop is the bytes node k sends to node k+1 (and the gradient back).
	Hop []units.Bytes
	// ClientMemory and NodeMemory are the memory each needs.
	ClientMemory Usage
	NodeMemory   []Usage
}

// NewPlan prices the configuration; c must be valid.
func NewPlan(c Config) Plan {
	n := len(c.Devices)
	p := Plan{Clients: n, Samples: n * c.Batch, Forward: make([]units.Time, n), Backward: make([]units.Time, n)}
	m := c.Model
	cut := c.Cut
	if c.Mode == ModeFedAvg {
		cut = len(m.Layers)
	}
	flops := m.FLOPs(0, cut) * float64(c.Batch)
	for i, d := range c.Devices {
		rate := d.FLOPS() * c.speed(i)
		p.Forward[i] = max(1, units.Round(flops/rate))
		p.Backward[i] = max(1, units.Round(2*flops/rate))
	}
	p.ClientMemory = Memory(m, 0, cut, c.Batch)
	if c.Mode == ModeFedAvg {
		p.Up = units.Bytes(BytesPerElement * m.Params())
		p.Down = p.Up
		return p
	}
	p.Up = units.Bytes(BytesPerElement * m.Layers[cut-1].Out * int64(c.Batch))
	p.Down = p.Up
	p.Nodes = Partition(m, cut, c.Hops, p.Samples)
	for k, r := range p.Nodes {
		f := m.FLOPs(r[0], r[1]) * float64(p.Samples)
		p.NodeForward = append(p.NodeForward, max(1, c.Compute.ComputeTime(f, 0)))
		p.NodeBackward = append(p.NodeBackward, max(1, c.Compute.ComputeTime(2*f, 0)))
		p.NodeMemory = append(p.NodeMemory, Memory(m, r[0], r[1], p.Samples))
		if k+1 < len(p.Nodes) {
			p.Hop = append(p.Hop, units.Bytes(BytesPerElement*m.Layers[r[1]-1].Out*int64(p.Samples)))
		}
	}
	return p
}
