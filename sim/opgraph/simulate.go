package opgraph

import (
	"fmt"
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
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
	// Hybrid is the sequence-to-sequence hybrid of Ono, Utiyama and
	// Sumita 2019 (hybrid.go): each recurrent layer on its own GPU,
	// pipelined over the time steps, and the output softmax data
	// parallel over all of them.
	Hybrid = "hybrid"
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
	// Split is Data, Model or Hybrid.
	Split string
	// Microbatches is the microbatches of a Model split, 1..Batch,
	// dividing it.
	Microbatches int
	// StageReplicas is, for a Model split, the GPUs of each pipeline stage
	// (DAPPLE's per-stage data parallelism, stages.go), summing to GPUs;
	// empty: one stage a GPU.
	StageReplicas []int
	// Search is the search whose best result the run plays (search.go):
	// SearchFlexFlow, SearchDLPlacer or empty.
	Search string
	// Steps and Seed are FlexFlow's MCMC steps and its walk's seed.
	Steps int
	Seed  uint64
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
	elems := float64(o.Out) * float64(max(o.H, 1)) * float64(max(o.W, 1)) * float64(max(o.D, 1)) * float64(max(o.Steps, 1)) * float64(b)
	rw := 2.0
	if o.Kind == Add {
		rw = 3
	}
	return max(1, units.Round(rw*elems*bytesPerElement/float64(gpu.HBMBandwidth)))
}

// outBytes is op o's output for b samples, bf16: what a stage ending with
// it sends to the next.
func outBytes(o Op, b int) units.Bytes {
	return units.Bytes(float64(o.Out)*float64(max(o.H, 1))*float64(max(o.W, 1))*float64(max(o.D, 1))*float64(max(o.Steps, 1))*float64(b)*bytesPerElement + 0.5)
}

// check refuses a Run that does not fit the graph, naming the scenario
// key of what is wrong ("graph.batch: is 12; allowed …").
func (r Run) check(g Graph) (hw.GPU, error) {
	gpu, err := hw.LookupGPU(r.GPU)
	if err != nil {
		return gpu, fmt.Errorf("cluster.gpu: %w", err)
	}
	key, is, allowed := "", any(nil), ""
	sum, least, reps := 0, 1, r.replicas()
	for _, d := range reps {
		sum, least = sum+d, min(least, d)
	}
	switch c := cutCount(g); {
	case r.GPUs < 1 || r.GPUs > 8:
		key, is, allowed = "cluster.gpus_per_node", r.GPUs, "1..8 (one server)"
	case r.Split != Data && r.Split != Model && r.Split != Hybrid:
		key, is, allowed = "graph.split", r.Split, "data, model, hybrid"
	case r.Batch < 1 || r.Batch > MaxBatch || r.Split != Model && r.Batch%r.GPUs != 0:
		key, is, allowed = "graph.batch", r.Batch, "1..65536, a multiple of the GPUs unless graph.split is model"
	case r.Split == Hybrid:
		return gpu, r.checkHybrid(g)
	case r.Split == Model && (r.Microbatches < 1 || r.Batch%r.Microbatches != 0):
		key, is, allowed = "graph.microbatches", r.Microbatches, "a divisor of graph.batch"
	case r.Split == Model && (sum != r.GPUs || least < 1 || c < len(reps)-1):
		key, is, allowed = "graph.stage_replicas", reps, "≥ 1 GPU a stage, as many GPUs in all as the cluster has, at most "+strconv.Itoa(c+1)+" stages"
	default:
		if err := g.Validate(); err != nil {
			return gpu, err
		}
		return gpu, r.checkFit(g, gpu) // a U-Net's stages in memory (lamp.go)
	}
	return gpu, fmt.Errorf("%s: is %v; allowed %s", key, is, allowed)
}

// Simulate runs one training iteration of graph g as r says and returns
// its timeline, on one server of r.GPUs r.GPU (the cluster section's
// presets: NVLink inside it).
func Simulate(g Graph, r Run) (*timeline.Timeline, error) {
	return simulate(g, r, hostScenario(r))
}

// hostScenario is the one-server cluster of r as a scenario, for its
// topology.
func hostScenario(r Run) scenario.Scenario {
	s := scenario.Default()
	s.Cluster = scenario.Cluster{GPU: r.GPU, Nodes: 1, GPUsPerNode: r.GPUs}
	return s
}

// simulate runs g as r says on the cluster of base.
func simulate(g Graph, r Run, base scenario.Scenario) (*timeline.Timeline, error) {
	gpu, err := r.check(g)
	if err != nil {
		return nil, err
	}
	if r.Search != "" { // FlexFlow's or DLPlacer's best (search.go, host only)
		return simulateSearch(g, r, gpu, base)
	}
	switch r.Split {
	case Data:
		// Data parallelism is one stage on every GPU, each taking one
		// microbatch, Batch/GPUs samples: a forward, a backward, then the
		// ring all-reduce of the whole gradient.
		r.Microbatches, r.StageReplicas = r.GPUs, []int{r.GPUs}
	case Hybrid:
		return simulateHybrid(g, r, gpu, base)
	case Model:
		if hasSkips(g) { // a U-Net: LAMP's cuts inside skip spans (lamp.go)
			return simulateLAMP(g, r, gpu, base)
		}
	}
	return simulateModel(g, r, gpu, base)
}

// cuts lists the indexes i after which the graph can be cut: no operator
// after i reads one before i (every residual branch closed).
//
//go:noinline
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

// titled is base's name, or title when it has none.
func titled(base scenario.Scenario, title string) string {
	if base.Name != "" {
		return base.Name
	}
	return title
}

// simulateModel runs GPipe over the stages (Model): every microbatch's
// forward through the stages, each stage sending its last operator's
// output to the next, then the backwards in reverse order of
// microbatches, each twice its forward, sending the gradient back. With
// Run.StageReplicas (DAPPLE's per-stage data parallelism, stages.go) stage
// i runs on d_i GPUs, microbatch j on its replica j mod d_i, and the
// replicas of a stage all-reduce its gradient once their backwards are
// done.
func simulateModel(g Graph, r Run, gpu hw.GPU, base scenario.Scenario) (*timeline.Timeline, error) {
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
	h, err := newBuilder(base, ", "+r.Split+" split", g, r)
	if err != nil {
		return nil, err
	}
	first := make([]int, n+1) // stage i's replicas are GPUs first[i] … first[i+1]−1
	for i, d := range reps {
		first[i+1] = first[i] + d
	}
	in := make([]int, m) // what microbatch j's next op waits for (−1: nothing)
	for j := range in {
		in[j] = -1
	}
	// Pass p < n is stage p's forwards, microbatches in order, each sent
	// to stage p+1; pass p ≥ n is stage 2n−1−p's backwards, in reverse,
	// each sent to the stage before, then the stage's all-reduce.
	for p := range 2 * n {
		i, next, k, label, d := p, p+1, timeline.Forward, "F", f[min(p, n-1)]
		if p >= n {
			i = 2*n - 1 - p
			next, k, label, d = i-1, timeline.Backward, "B", 2*f[i]
		}
		for jj := range m {
			j := jj
			if p >= n {
				j = m - 1 - jj
			}
			x := first[i] + j%reps[i]
			in[j] = h.run(x, k, label, i, j, d, in[j])
			if next >= 0 && next < n {
				in[j] = h.send(x, first[next]+j%reps[next], outBytes(g.Ops[ends[min(i, next)]], b), in[j])
			}
		}
		if p < n {
			continue
		}
		stageAllReduce(h, g, ends, i, first[i], reps[i], h.last)
	}
	return h.tg.Finish("opgraph")
}

// builder adds a run's ops to a task graph, each GPU's in the order they
// are added, with the point-to-point messages on one channel.
type builder struct {
	tg   *taskgraph.Graph
	t    *topo.Topology
	ch   taskgraph.Channel // the sends' (−1: none yet)
	last []int             // each GPU's last op (−1: none yet)
}

// newBuilder is a builder for r on base's cluster, titled base's name or
// the graph's name, how and the GPU preset.
func newBuilder(base scenario.Scenario, how string, g Graph, r Run) (*builder, error) {
	t, err := topology(base)
	if err != nil {
		return nil, err
	}
	tg := taskgraph.New(t, titled(base, g.Name+how+" on "+r.GPU))
	h := &builder{tg: tg, t: t, last: make([]int, r.GPUs), ch: -1}
	for i := range h.last {
		h.last[i] = -1
	}
	// The point-to-point sends and the all-reduces run on streams of their
	// own, as NCCL's do, sharing the links rather than queueing.
	tg.ConcurrentMessages()
	return h, nil
}

// run adds a compute span of d on GPU x after x's last op and dep.
//
//go:noinline
func (h *builder) run(x int, k timeline.Kind, label string, stage, mb int, d units.Time, dep ...int) int {
	h.last[x] = h.tg.AddCompute(timeline.Span{GPU: x, Kind: k, Label: label, Stage: stage, Microbatch: mb}, max(1, d), deps(append(dep, h.last[x])...)...)
	return h.last[x]
}

// send adds a message of bytes from GPU src to dst after dep, and returns
// it; dep itself when src is dst.
//
//go:noinline
func (h *builder) send(src, dst int, bytes units.Bytes, dep int) int {
	if src == dst {
		return dep
	}
	if h.ch < 0 { // the channel of the point-to-point sends, made at the first
		n := len(h.last)
		h.ch = h.tg.AddChannel(collective.Schedule{Op: collective.OpPipelineSend, Algorithm: "p2p", Ranks: n}, taskgraph.Identity(n), "pp")
	}
	return h.tg.AddMessage(h.ch, collective.Transfer{Src: src, Dst: dst, Bytes: bytes, Phase: collective.PhasePipeline}, deps(dep)...)
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
