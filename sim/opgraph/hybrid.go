//go:build !js

package opgraph

import (
	"fmt"

	"paraplay/sim/nccltest"
	"paraplay/sim/topo"

	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// The sequence-to-sequence hybrid, after Ono, Utiyama and Sumita 2019
// ("Hybrid Data-Model Parallel Training for Sequence-to-Sequence
// Recurrent Neural Network Machine Translation"): the recurrent part of
// the graph (its embeddings and LSTM layers) is model parallel, LSTM layer
// k of each side on GPU k mod G and the embeddings on GPU 0, run one time
// step at a time so that the layers form a wavefront (layer k works on
// step t while layer k+1 works on step t−1); the operators after the last
// LSTM (the output softmax; the paper's attention too, which this graph
// does not have) are data parallel over all G GPUs, each on Batch/G
// samples, with their gradient summed by a ring all-reduce.
//
// Each LSTM step (o, t) waits for its own step t−1 on its GPU and for step
// t of the layer below, sent as one step's hidden state (Batch × width,
// bf16); a layer's first step also waits for the last step of any other
// input it reads (the decoder's first layer starts from the encoder's
// state). Backward runs the same wavefront in reverse at twice each
// step's forward. With one GPU the iteration is everything in sequence.
//
// With free communication and W = the longest chain of steps through the
// layers (hybridChain), the iteration is
//
//	T = 3·(E + W·c) + 3·S/G
//
// for E the embeddings' forward, c one LSTM step and S the softmax's
// forward on the whole batch (TestHybridClosedForm).
//
// The hybrid runs on the host only (paraplay run, the site's static
// demos): the browser build refuses it (hybrid_js.go), for the 8 KB gzip
// it would add to the download.

// checkHybrid refuses a graph that is not recurrent layers followed by a
// data-parallel tail.
func (r Run) checkHybrid(g Graph) error {
	tail := hybridTail(g)
	for _, o := range g.Ops[:tail] {
		if o.Kind != LSTM && o.Kind != Embedding {
			tail = 0
		}
	}
	if tail == 0 {
		return fmt.Errorf("graph.split: is hybrid; allowed for a recurrent graph (embeddings and LSTMs, then the rest: seq2seq-lstm), not %s", g.Name)
	}
	return g.Validate()
}

// The free network (cluster.network ideal) is host-only too: it serves
// the hybrid's closed form.

// ideal is the port of a free network (cluster.network ideal): an
// exabyte a second and no latency, so that every message takes 0 or 1 ns.
var ideal = topo.Port{Bandwidth: 1e18, Kind: "ideal"}

// topology is base's one server of GPUs, or a free network.
func topology(base scenario.Scenario) (*topo.Topology, error) {
	if base.Cluster.Network == "ideal" {
		return topo.Switched(base.NumGPUs(), ideal), nil
	}
	return nccltest.Topology(base)
}

// hybridTail is the index of the first operator after the last LSTM: the
// data-parallel part starts there (0: no LSTM).
func hybridTail(g Graph) int {
	tail := 0
	for i, o := range g.Ops {
		if o.Kind == LSTM {
			tail = i + 1
		}
	}
	return tail
}

// hybridGPUs is the GPU of each recurrent operator, an LSTM at depth k
// (k LSTMs from its embedding, counting itself) on GPU (k−1) mod G, an
// embedding on GPU 0; and the LSTM layers of each side (those after one
// embedding), bottom first.
func hybridGPUs(g Graph, gpus int) (on []int, sides [][]int) {
	tail := hybridTail(g)
	depth := make([]int, tail)
	on = make([]int, tail)
	for i, o := range g.Ops[:tail] {
		if o.Kind == Embedding {
			sides = append(sides, nil)
			continue
		}
		depth[i] = depth[o.Inputs[0]] + 1
		on[i] = (depth[i] - 1) % gpus
		sides[len(sides)-1] = append(sides[len(sides)-1], i)
	}
	return on, sides
}

// simulateHybrid plays the hybrid split of g (see the comment above) as a
// task graph on base's cluster.
func simulateHybrid(g Graph, r Run, gpu hw.GPU, base scenario.Scenario) (*timeline.Timeline, error) {
	h, err := newBuilder(base, ", hybrid: recurrent layers model parallel, softmax data parallel", g, r)
	if err != nil {
		return nil, err
	}
	tail := hybridTail(g)
	on, sides := hybridGPUs(g, r.GPUs)
	whole := func(o Op) units.Time { return forwardTime(o, r.Batch, gpu) }
	step := func(o Op) units.Time { return whole(o) / units.Time(o.Steps) }
	bytes := func(o Op) units.Bytes { return outBytes(o, r.Batch) / units.Bytes(o.Steps) }
	// Forward: the embeddings whole on GPU 0, then each side's LSTM steps,
	// time step by time step (ids[i][t]: op i's step t).
	ids := make([][]int, tail)
	for i, o := range g.Ops[:tail] {
		if o.Kind == Embedding {
			ids[i] = []int{h.run(0, timeline.Forward, "embed", i, 0, whole(o))}
		}
	}
	for _, side := range sides {
		for t := range g.Ops[side[0]].Steps {
			for _, i := range side {
				o, in := g.Ops[i], g.Ops[i].Inputs[0]
				dep := []int{h.send(on[in], on[i], bytes(o), ids[in][min(t, len(ids[in])-1)])}
				for _, j := range o.Inputs[1:] { // a first step starts from the state of another side
					if t == 0 {
						dep = append(dep, h.send(on[j], on[i], bytes(g.Ops[j]), ids[j][len(ids[j])-1]))
					}
				}
				ids[i] = append(ids[i], h.run(on[i], timeline.Forward, "F", i, t, step(o), dep...))
			}
		}
	}
	// The tail, data parallel: the top layer's outputs dealt to the GPUs,
	// forward and backward on each share, the input gradients back.
	top, share := tail-1, r.Batch/r.GPUs
	var f units.Time
	for _, o := range g.Ops[tail:] {
		f += forwardTime(o, share, gpu)
	}
	sm := make([]int, r.GPUs)    // each GPU's softmax backward
	grads := make([]int, r.GPUs) // and its gradient, back on the top layer's GPU
	for x := range r.GPUs {
		h.run(x, timeline.Forward, "softmax", tail, 0, f, h.send(on[top], x, outBytes(g.Ops[top], share), ids[top][len(ids[top])-1]))
		sm[x] = h.run(x, timeline.Backward, "softmax", tail, 0, 2*f)
		grads[x] = h.send(x, on[top], outBytes(g.Ops[top], share), sm[x])
	}
	hybridBackward(h, g, on, sides, ids, whole, bytes, h.tg.AddJoin(grads...))
	stageAllReduce(h, g, []int{tail - 1, len(g.Ops) - 1}, 1, 0, r.GPUs, sm)
	return h.tg.Finish("opgraph")
}

// hybridBackward adds the recurrent part's backward, the forward's
// wavefront in reverse at twice each step's forward: step t of a layer
// waits for its step t+1 and for step t of the layer above (the top layer
// for the tail's gradient, grad), a side's last step for the first step
// of the layer that read its state; then the embeddings' backwards.
func hybridBackward(h *builder, g Graph, on []int, sides [][]int, fwd [][]int, whole func(Op) units.Time, bytes func(Op) units.Bytes, grad int) {
	tail := len(fwd)
	bwd := make([][]int, tail)
	users := make([][]int, tail) // the operators that read each one
	for i, o := range g.Ops[:tail] {
		bwd[i] = make([]int, len(fwd[i]))
		for _, j := range o.Inputs {
			users[j] = append(users[j], i)
		}
	}
	for k := len(sides) - 1; k >= 0; k-- {
		side := sides[k]
		for t := g.Ops[side[0]].Steps - 1; t >= 0; t-- {
			for n := len(side) - 1; n >= 0; n-- {
				i := side[n]
				o := g.Ops[i]
				dep := []int{grad}
				if i != tail-1 {
					dep = nil
				}
				for _, u := range users[i] {
					switch {
					case g.Ops[u].Inputs[0] == i:
						dep = append(dep, h.send(on[u], on[i], bytes(o), bwd[u][t]))
					case t == o.Steps-1:
						dep = append(dep, h.send(on[u], on[i], bytes(o), bwd[u][0]))
					}
				}
				bwd[i][t] = h.run(on[i], timeline.Backward, "B", i, t, 2*(whole(o)/units.Time(o.Steps)), dep...)
			}
		}
	}
	for i, o := range g.Ops[:tail] {
		if o.Kind == Embedding {
			h.run(0, timeline.Backward, "embed", i, 0, 2*whole(o), bwd[users[i][0]][0])
		}
	}
}
