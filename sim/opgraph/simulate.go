package opgraph

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/nccltest"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// The ways Run splits a graph over the GPUs.
const (
	// Data is data parallelism: every GPU runs the whole graph on its
	// share of the batch, then the GPUs sum the gradients with a ring
	// all-reduce (the data-parallel strategy runs it).
	Data = "data"
	// Model is layer-wise model parallelism as GPipe runs it (Huang et
	// al. 2019): the operators cut into one contiguous stage per GPU,
	// balanced by forward time, the batch into microbatches that flow
	// forward through the stages and then backward, each stage sending its
	// boundary activation (and, backward, its gradient) to the next.
	Model = "model"
)

// Run is how to train a graph: on which GPUs, with which split.
type Run struct {
	// GPU is a catalog GPU (cluster.gpu, e.g. h100-sxm).
	GPU string
	// GPUs is how many, on one server of them, 1..gpus a server.
	GPUs int
	// Batch is the samples of one iteration, divided among the GPUs
	// (Data) or into Microbatches (Model).
	Batch int
	// Split is Data or Model.
	Split string
	// Microbatches is the microbatches of a Model split, 1..Batch,
	// dividing it.
	Microbatches int
	// StageReplicas is, for a Model split, the GPUs of each pipeline stage
	// (DAPPLE's per-stage data parallelism, stages.go), summing to GPUs;
	// empty: one stage a GPU.
	StageReplicas []int
}

// bytesPerElement is bf16.
const bytesPerElement = 2

// forwardTime is op o's forward time for b samples on gpu: a convolution,
// dense layer or LSTM at its FLOPs (2 per multiply-accumulate) over the
// GPU's peak times its preset efficiency; the other operators at the HBM
// traffic of reading their input and writing their output (a residual sum
// reads two), bf16, over the HBM bandwidth.
func forwardTime(o Op, b int, gpu hw.GPU) units.Time {
	if m := o.MACs(); m > 0 {
		return gpu.ComputeTime(2*float64(m)*float64(b), 0)
	}
	elems := float64(o.Out) * float64(max(o.H, 1)) * float64(max(o.W, 1)) * float64(max(o.Steps, 1)) * float64(b)
	rw := 2.0
	if o.Kind == Add {
		rw = 3
	}
	return max(1, units.Round(rw*elems*bytesPerElement/float64(gpu.HBMBandwidth)))
}

// outBytes is op o's output for b samples, bf16: what a stage ending with
// it sends to the next.
func outBytes(o Op, b int) units.Bytes {
	return units.Bytes(float64(o.Out)*float64(max(o.H, 1))*float64(max(o.W, 1))*float64(max(o.Steps, 1))*float64(b)*bytesPerElement + 0.5)
}

// check refuses a Run that does not fit the graph.
func (r Run) check(g Graph) (hw.GPU, error) {
	gpu, err := hw.LookupGPU(r.GPU)
	switch {
	case err != nil:
		return gpu, fmt.Errorf("opgraph: gpu: %w", err)
	case r.GPUs < 1 || r.GPUs > 8:
		return gpu, fmt.Errorf("opgraph: gpus is %d; allowed 1..8 (one server)", r.GPUs)
	case r.Split != Data && r.Split != Model:
		return gpu, fmt.Errorf("opgraph: split %q; allowed %s, %s", r.Split, Data, Model)
	case r.Split == Data && (r.Batch < r.GPUs || r.Batch%r.GPUs != 0):
		return gpu, fmt.Errorf("opgraph: batch is %d; a data split needs a multiple of gpus %d", r.Batch, r.GPUs)
	case r.Split == Model && (r.Microbatches < 1 || r.Batch%r.Microbatches != 0):
		return gpu, fmt.Errorf("opgraph: microbatches is %d; allowed a divisor of batch %d", r.Microbatches, r.Batch)
	case r.Split == Model && len(cuts(g)) < len(r.replicas())-1:
		return gpu, fmt.Errorf("opgraph: %q has %d places to cut; a model split of %d stages needs %d", g.Name, len(cuts(g)), len(r.replicas()), len(r.replicas())-1)
	}
	if err := r.checkReplicas(); err != nil {
		return gpu, err
	}
	return gpu, g.Validate()
}

// Simulate runs one training iteration of graph g as r says and returns
// its timeline.
func Simulate(g Graph, r Run) (*timeline.Timeline, error) {
	gpu, err := r.check(g)
	if err != nil {
		return nil, err
	}
	if r.Split == Data {
		var fwd units.Time
		for _, o := range g.Ops {
			fwd += forwardTime(o, r.Batch/r.GPUs, gpu)
		}
		// The backward pass computes two products per forward one (the
		// input's and the weights' gradients), and reads and writes twice.
		s, err := dataScenario(fmt.Sprintf("%s, data parallel on %d %s", g.Name, r.GPUs, r.GPU), r, fwd, 2*g.Params())
		if err != nil {
			return nil, err
		}
		return run.Simulate(s)
	}
	return simulateModel(g, r, gpu)
}

// cuts lists the indexes i after which the graph can be cut: no operator
// after i reads one before i (every residual branch closed).
func cuts(g Graph) []int {
	var out []int
	for i := 0; i < len(g.Ops)-1; i++ {
		ok := true
		for _, o := range g.Ops[i+1:] {
			for _, j := range o.Inputs {
				if j < i {
					ok = false
				}
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// dataScenario is the data-parallel scenario of r with forward time fwd
// and a gradient of bytes: the cluster the model split runs on too.
func dataScenario(name string, r Run, fwd units.Time, bytes int64) (scenario.Scenario, error) {
	return scenario.Parse([]byte(fmt.Sprintf("name: %s\nstrategy: data-parallel\n"+
		"cluster: {gpu: %s, nodes: 1, gpus_per_node: %d}\ncompute: {forward: %dns, backward: %dns}\n"+
		"collective: {algorithm: ring, size: %dB}\n", name, r.GPU, r.GPUs, int64(fwd), int64(2*fwd), bytes)))
}

// simulateModel runs GPipe over the stages (Model): every microbatch's
// forward through the stages, each stage sending its last operator's
// output to the next, then the backwards in reverse order of
// microbatches, each twice its forward, sending the gradient back. With
// Run.StageReplicas (DAPPLE's per-stage data parallelism, stages.go) stage
// i runs on d_i GPUs, microbatch j on its replica j mod d_i, and the
// replicas of a stage all-reduce its gradient once their backwards are
// done.
func simulateModel(g Graph, r Run, gpu hw.GPU) (*timeline.Timeline, error) {
	reps := r.replicas()
	n, m := len(reps), r.Microbatches
	b := r.Batch / m
	ends := stagesWeighted(g, reps, b, gpu)
	f := make([]units.Time, n)
	for i, from := 0, 0; i < n; i++ {
		for _, o := range g.Ops[from : ends[i]+1] {
			f[i] += forwardTime(o, b, gpu)
		}
		from = ends[i] + 1
	}
	s, err := dataScenario(g.Name+", model parallel", r, 1, 1)
	if err != nil {
		return nil, err
	}
	t, err := nccltest.Topology(s)
	if err != nil {
		return nil, err
	}
	first := make([]int, n+1) // stage i's replicas are GPUs first[i] … first[i+1]−1
	for i, d := range reps {
		first[i+1] = first[i] + d
	}
	on := func(i, j int) int { return first[i] + j%reps[i] }
	tg := taskgraph.New(t, fmt.Sprintf("%s, GPipe over %d %s, %d microbatches", g.Name, r.GPUs, r.GPU, m))
	ch := tg.AddChannel(collective.Schedule{Op: collective.OpPipelineSend, Algorithm: "p2p", Ranks: r.GPUs}, taskgraph.Identity(r.GPUs), "pp")
	last := make([]int, r.GPUs) // each GPU's last op, so that its ops run in order (−1: none yet)
	for i := range last {
		last[i] = -1
	}
	send := func(src, dst, k int, dep int) int {
		return tg.AddMessage(ch, collective.Transfer{Src: src, Dst: dst, Bytes: outBytes(g.Ops[ends[k]], b), Phase: collective.PhasePipeline}, dep)
	}
	in := make([]int, m) // what microbatch j's next op waits for (−1: nothing)
	for j := range in {
		in[j] = -1
	}
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			x := on(i, j)
			last[x] = tg.AddCompute(timeline.Span{GPU: x, Kind: timeline.Forward, Label: "F", Stage: i, Microbatch: j}, f[i], deps(last[x], in[j])...)
			in[j] = last[x]
			if i < n-1 {
				in[j] = send(x, on(i+1, j), i, last[x])
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			x := on(i, j)
			last[x] = tg.AddCompute(timeline.Span{GPU: x, Kind: timeline.Backward, Label: "B", Stage: i, Microbatch: j}, 2*f[i], deps(last[x], in[j])...)
			in[j] = last[x]
			if i > 0 {
				in[j] = send(x, on(i-1, j), i-1, last[x])
			}
		}
		if err := stageAllReduce(tg, t, g, ends, i, first[i], reps[i], last); err != nil {
			return nil, err
		}
	}
	return tg.Finish("opgraph")
}

// deps drops the −1s (no dependency).
func deps(ids ...int) []int {
	var out []int
	for _, id := range ids {
		if id >= 0 {
			out = append(out, id)
		}
	}
	return out
}
