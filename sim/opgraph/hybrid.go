package opgraph

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
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

// checkHybrid refuses a graph that is not recurrent layers followed by a
// data-parallel tail, or a batch the GPUs do not divide.
func (r Run) checkHybrid(g Graph) error {
	if err := g.Validate(); err != nil {
		return err
	}
	if r.Batch < r.GPUs || r.Batch%r.GPUs != 0 {
		return fmt.Errorf("opgraph: batch is %d; a hybrid split needs a multiple of gpus %d", r.Batch, r.GPUs)
	}
	tail := hybridTail(g)
	if tail == 0 {
		return fmt.Errorf("opgraph: split hybrid needs a recurrent graph (seq2seq-lstm); %q has no LSTM layer", g.Name)
	}
	for i, o := range g.Ops[:tail] {
		if o.Kind != LSTM && o.Kind != Embedding {
			return fmt.Errorf("opgraph: split hybrid: op %d (%s) is a %s before the last LSTM; allowed embeddings and LSTMs only", i, o.Name, o.Kind)
		}
	}
	return nil
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

// hybridGPUs is the GPU of each recurrent operator: an LSTM at depth k
// (k LSTMs from its embedding, counting itself) on GPU (k−1) mod G, an
// embedding on GPU 0.
func hybridGPUs(g Graph, gpus int) []int {
	tail := hybridTail(g)
	depth := make([]int, tail)
	on := make([]int, tail)
	for i, o := range g.Ops[:tail] {
		if o.Kind == LSTM && len(o.Inputs) > 0 {
			depth[i] = depth[o.Inputs[0]] + 1
			on[i] = (depth[i] - 1) % gpus
		}
	}
	return on
}

// simulateHybrid plays the hybrid split of g (see the comment above) as a
// task graph on base's cluster.
func simulateHybrid(g Graph, r Run, gpu hw.GPU, base scenario.Scenario) (*timeline.Timeline, error) {
	t, err := topology(base)
	if err != nil {
		return nil, err
	}
	tail, on := hybridTail(g), hybridGPUs(g, r.GPUs)
	tg := taskgraph.New(t, titled(base, fmt.Sprintf("%s, hybrid: %d recurrent layers model parallel, softmax data parallel on %d %s", g.Name, min(r.GPUs, maxDepth(g)), r.GPUs, r.GPU)))
	ch := tg.AddChannel(collective.Schedule{Op: collective.OpPipelineSend, Algorithm: "p2p", Ranks: r.GPUs}, taskgraph.Identity(r.GPUs), "pp")
	h := &hybridRun{g: g, tg: tg, ch: ch, on: on, b: r.Batch, gpu: gpu, last: make([]int, r.GPUs)}
	for i := range h.last {
		h.last[i] = -1
	}
	fwd := h.forward(tail)
	// The tail, data parallel: the top layer's outputs dealt to the GPUs,
	// forward and backward on each share, the input gradients back.
	top := g.Ops[tail].Inputs[0]
	share := r.Batch / r.GPUs
	var f units.Time
	for _, o := range g.Ops[tail:] {
		f += forwardTime(o, share, gpu)
	}
	grads := make([]int, 0, r.GPUs)
	sm := make([]int, r.GPUs) // each GPU's softmax backward
	for x := range r.GPUs {
		dep := fwd[top][len(fwd[top])-1]
		if x != on[top] {
			dep = h.send(on[top], x, outBytes(g.Ops[top], share), dep)
		}
		h.run(x, timeline.Forward, "softmax", 0, 0, f, dep)
		b := h.run(x, timeline.Backward, "softmax", 0, 0, 2*f)
		sm[x] = b
		if x != on[top] {
			b = h.send(x, on[top], outBytes(g.Ops[top], share), b)
		}
		grads = append(grads, b)
	}
	h.backward(tail, fwd, tg.AddJoin(grads...))
	if err := stageAllReduce(tg, t, g, []int{tail - 1, len(g.Ops) - 1}, 1, 0, r.GPUs, sm); err != nil {
		return nil, err
	}
	return tg.Finish("opgraph")
}

// maxDepth is the most LSTM layers stacked on one side of g.
func maxDepth(g Graph) int {
	d, n := 0, 0
	for _, o := range g.Ops {
		switch o.Kind {
		case Embedding:
			n = 0
		case LSTM:
			n++
			d = max(d, n)
		}
	}
	return d
}

// hybridRun is the state of one hybrid task graph as it is built.
type hybridRun struct {
	g    Graph
	tg   *taskgraph.Graph
	ch   taskgraph.Channel
	on   []int // each recurrent operator's GPU
	b    int   // the batch
	gpu  hw.GPU
	last []int // each GPU's last op, so that its ops run in order (−1: none)
}

// run adds a compute span on GPU x after x's last op and deps.
func (h *hybridRun) run(x int, k timeline.Kind, label string, stage, step int, d units.Time, dep ...int) int {
	h.last[x] = h.tg.AddCompute(timeline.Span{GPU: x, Kind: k, Label: label, Stage: stage, Microbatch: step}, max(1, d), deps(append(dep, h.last[x])...)...)
	return h.last[x]
}

// send adds a message of bytes from GPU src to dst after dep.
func (h *hybridRun) send(src, dst int, bytes units.Bytes, dep int) int {
	return h.tg.AddMessage(h.ch, collective.Transfer{Src: src, Dst: dst, Bytes: bytes, Phase: "pp"}, dep)
}

// after is the op whose result x needs from op id, run on GPU from: id
// itself on the same GPU, else a message of bytes.
func (h *hybridRun) after(id, from, x int, bytes units.Bytes) int {
	if from == x {
		return id
	}
	return h.send(from, x, bytes, id)
}

// stepBytes is one time step of op o's output for the batch, bf16.
func (h *hybridRun) stepBytes(o Op) units.Bytes {
	return units.Bytes(float64(o.Out)*float64(h.b)*bytesPerElement + 0.5)
}

// sides is the LSTM layers of each side of the recurrent part (those
// after one embedding), bottom first.
func sides(g Graph, tail int) [][]int {
	var out [][]int
	for i, o := range g.Ops[:tail] {
		switch {
		case o.Kind == Embedding:
			out = append(out, nil)
		case len(out) > 0:
			out[len(out)-1] = append(out[len(out)-1], i)
		}
	}
	return out
}

// forward adds the recurrent part's forward: the embeddings whole, on GPU
// 0, then each side's LSTM steps, time step by time step, and returns each
// operator's step ops (an embedding's one).
func (h *hybridRun) forward(tail int) [][]int {
	g := h.g
	ids := make([][]int, tail)
	for i, o := range g.Ops[:tail] {
		if o.Kind == Embedding {
			ids[i] = []int{h.run(h.on[i], timeline.Forward, "embed", 0, 0, forwardTime(o, h.b, h.gpu))}
		}
	}
	for _, side := range sides(g, tail) {
		for t := 0; t < g.Ops[side[0]].Steps; t++ {
			for _, i := range side {
				o := g.Ops[i]
				in, x := o.Inputs[0], h.on[i]
				var dep []int
				if g.Ops[in].Kind == Embedding {
					dep = append(dep, h.after(ids[in][0], h.on[in], x, h.stepBytes(o)))
				} else {
					dep = append(dep, h.after(ids[in][t], h.on[in], x, h.stepBytes(g.Ops[in])))
				}
				if t == 0 {
					for _, j := range o.Inputs[1:] {
						dep = append(dep, h.after(ids[j][len(ids[j])-1], h.on[j], x, h.stepBytes(g.Ops[j])))
					}
				}
				ids[i] = append(ids[i], h.run(x, timeline.Forward, "F", i, t, h.step(o), dep...))
			}
		}
	}
	return ids
}

// step is one time step of LSTM o's forward for the batch.
func (h *hybridRun) step(o Op) units.Time { return forwardTime(o, h.b, h.gpu) / units.Time(o.Steps) }

// backward adds the recurrent part's backward, the forward's wavefront in
// reverse at twice each step's forward: step t of a layer waits for its
// step t+1 and for step t of the layer above (the top layer for the
// gradient from the tail, grad), a side's last step for the first step of
// the layer that read its state; then the embeddings' backwards on GPU 0.
func (h *hybridRun) backward(tail int, fwd [][]int, grad int) {
	g := h.g
	bwd := make([][]int, tail)
	users := make([][]int, tail) // the operators that read each one
	for i, o := range g.Ops[:tail] {
		bwd[i] = make([]int, len(fwd[i]))
		for _, j := range o.Inputs {
			users[j] = append(users[j], i)
		}
	}
	ss := sides(g, tail)
	for k := len(ss) - 1; k >= 0; k-- {
		side := ss[k]
		for t := g.Ops[side[0]].Steps - 1; t >= 0; t-- {
			for n := len(side) - 1; n >= 0; n-- {
				i := side[n]
				o, x := g.Ops[i], h.on[i]
				var dep []int
				if i == tail-1 {
					dep = append(dep, grad)
				}
				for _, u := range users[i] {
					if g.Ops[u].Inputs[0] == i {
						dep = append(dep, h.after(bwd[u][t], h.on[u], x, h.stepBytes(o)))
					} else if t == o.Steps-1 {
						dep = append(dep, h.after(bwd[u][0], h.on[u], x, h.stepBytes(o)))
					}
				}
				bwd[i][t] = h.run(x, timeline.Backward, "B", i, t, 2*h.step(o), dep...)
			}
		}
	}
	for i, o := range g.Ops[:tail] {
		if o.Kind == Embedding {
			h.run(h.on[i], timeline.Backward, "embed", 0, 0, 2*forwardTime(o, h.b, h.gpu), bwd[users[i][0]][0])
		}
	}
}
