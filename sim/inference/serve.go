package inference

import (
	"cmp"
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

// Simulate serves the scenario's requests: on each replica,
// every microbatch is prefilled, then decoded one token per step until it
// has inference.output tokens. Each op is priced by the op model
// (OpModel: the stage's kernels, GEMMs at sim/gemm's efficiency, a launch
// each), or by the roofline at training.efficiency when that is set; the
// task graph (package taskgraph) supplies the waiting:
//
//	pipeline (shared_weights none): stage s of microbatch j's step k waits
//	  for stage s−1's activations (a message on NVLink after
//	  send_overhead), or on stage 0 for the token sampled at step k−1; with
//	  host_time and no async_host, a Host span holds the GPU first
//	sampling: a Sample span on the last stage's GPU, or (cpu) the logits
//	  cross PCIe to a CPU lane that samples while the GPU goes on
//	shared weights: each GPU serves its own requests layer by layer; a
//	  layer it does not own is fetched from its owner into a two-layer
//	  buffer (fetch), or its activations go to the owner, which applies
//	  the layer's weights and sends them back (ship)
//
// The KV cache of each GPU grows when an op ends by the tokens it wrote
// times the GPU's bytes per token. Every idle interval of a GPU is then
// given a kind (bubbles). s must be valid (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	r, err := newInferenceRun(s)
	if err != nil {
		return nil, err
	}
	if SettingsOf(&s).SharedWeights == SharedNone {
		r.buildPipeline()
	} else {
		r.buildShared()
	}
	if r.err != nil {
		return nil, r.err
	}
	r.g.OnFinish(r.observe)
	return r.g.Play("inference", r.record)
}

// infRun builds and observes one serving run.
type infRun struct {
	s      scenario.Scenario
	in     Settings
	m      workload.Model
	g      *taskgraph.Graph
	p2p    taskgraph.Channel // every message
	stages []Stage           // by stage
	shared Shared
	servers
	gpuMemory
	meta     []opMeta     // by op id
	finishAt []units.Time // by op id
	served
	ops *OpModel // prices steps; nil when training.efficiency asks for the roofline
	err error    // the first pricing error
}

// servers is the hardware and its parallel layout.
type servers struct {
	gpu  hw.GPU
	nv   topo.Port // NVLink between GPUs
	pcie topo.Port // GPU to host
	n    int       // GPUs (CPU lanes follow them)
	dp   int
	pp   int
	tp   int
}

// gpuMemory is each GPU's memory, by GPU.
type gpuMemory struct {
	kvPer     []units.Bytes // cache bytes per token
	resident  []units.Bytes // weights kept
	buffer    []units.Bytes // borrowed-weight buffer
	kv        [][]timeline.MemoryPoint
	kvBytes   []units.Bytes
	workspace []units.Bytes
}

// served is the microbatches served and the ops of their tokens.
type served struct {
	batches []timeline.ServedBatch
	tokenOp [][2]int // by batch: the ops that produce its first and last token
}

// opMeta is what the bubble classifier and the KV record need of an op.
type opMeta struct {
	role   opRole
	gpus   []int // the streams it holds (compute) or its endpoints (message)
	deps   []int
	dur    units.Time  // compute: its length
	kvAdd  units.Bytes // bytes of cache it writes on each of its GPUs
	kvGPUs []int       // where that cache lives (its GPUs, or the requester's)
}

type opRole uint8

const (
	roleOther   opRole = iota // a join or delay
	roleCompute               // model work on a GPU
	roleHost                  // host work the GPU waits for (a Host span)
	roleCPU                   // a CPU lane's span
	roleMessage               // a message between two vertices
	roleDelay                 // a send's fixed overhead
)

func newInferenceRun(s scenario.Scenario) (*infRun, error) {
	m, err := s.Model.Resolve()
	if err != nil {
		return nil, err
	}
	srv, err := cluster.LookupServer(s.Cluster.GPU, s.Cluster.Intra, "pcie5")
	if err != nil {
		return nil, err
	}
	gpu := srv.GPU
	var ops *OpModel
	if s.Training.Efficiency == 0 {
		if ops, err = NewOpModel(gpu); err != nil {
			return nil, err
		}
	}
	p := s.Parallel
	r := &infRun{ops: ops, s: s, in: SettingsOf(&s), m: m, servers: servers{gpu: gpu, dp: p.DP, pp: p.PP, tp: p.TP, n: p.DP * p.PP * p.TP,
		nv: srv.NV, pcie: srv.PCIe}}
	cpus := 0
	if r.in.Sampling == SampleCPU {
		cpus = r.dp
	}
	t := r.topology(cpus)
	r.g = taskgraph.New(t, s.Title())
	r.g.TrackMemory()
	r.p2p = r.g.AddChannel(collective.Schedule{Op: collective.OpSend, Algorithm: "p2p", Ranks: len(t.GPUs)}, taskgraph.Identity(len(t.GPUs)), taskgraph.PointToPoint)
	v := len(t.GPUs)
	r.kvPer, r.resident, r.buffer = make([]units.Bytes, v), make([]units.Bytes, v), make([]units.Bytes, v)
	r.kv, r.kvBytes, r.workspace = make([][]timeline.MemoryPoint, v), make([]units.Bytes, v), make([]units.Bytes, v)
	if r.in.SharedWeights == SharedNone {
		layers := SplitLayers(m.Layers, r.pp)
		for st := 0; st < r.pp; st++ {
			r.stages = append(r.stages, Stage{Model: m, Layers: layers[st], First: st == 0, Last: st == r.pp-1,
				TP: r.tp, GPU: gpu, Efficiency: s.Training.Efficiency})
		}
		for id := 0; id < r.n; id++ {
			st := r.stages[id/r.tp%r.pp]
			r.kvPer[id], r.resident[id] = st.KVBytesPerToken(), st.WeightBytes()
		}
	} else {
		r.shared = Shared{Model: m, GPUs: r.dp, Fetch: r.in.SharedWeights == SharedFetch}
		for id := 0; id < r.n; id++ {
			r.kvPer[id] = KVBytesPerToken(m, m.Layers, 1)
			r.buffer[id] = units.Bytes(r.shared.BufferLayers()) * LayerWeightBytes(m)
			r.resident[id] = r.shared.WeightBytes(id) - r.buffer[id]
		}
	}
	return r, nil
}

// topology is one node: the GPUs on an NVSwitch, and cpus CPU lanes (one
// per replica) joined to it over PCIe.
func (r *infRun) topology(cpus int) *topo.Topology {
	t := topo.Switched(r.n+cpus, r.nv)
	for c := 0; c < cpus; c++ {
		id := r.n + c
		t.GPUs[id].Role, t.GPUs[id].Name = topo.RoleCPU, "CPU "+strconv.Itoa(c)
		for i := range t.Links {
			if l := &t.Links[i]; l.From == id || l.To == id {
				l.Bandwidth, l.Kind = r.pcie.Bandwidth, r.pcie.Kind
				if l.From == id {
					l.Latency = r.pcie.Latency
				}
			}
		}
	}
	return t
}

// gpuOf is the GPU of replica rep, stage st, tensor rank k: tp innermost.
func (r *infRun) gpuOf(rep, st, k int) int { return (rep*r.pp+st)*r.tp + k }

// stageGPUs lists the tensor-parallel group of a stage of a replica.
func (r *infRun) stageGPUs(rep, st int) []int {
	out := make([]int, r.tp)
	for k := range out {
		out[k] = r.gpuOf(rep, st, k)
	}
	return out
}

// addOp records meta for the op the graph just returned.
func (r *infRun) addOp(id int, m opMeta) int {
	for len(r.meta) <= id {
		r.meta = append(r.meta, opMeta{})
	}
	r.meta[id] = m
	return id
}

// compute adds a span of kind on gpus after deps: model work, a Host span
// or a CPU lane's work, with comm blocking tensor-parallel communication
// after it and ws bytes of workspace while it runs.
func (r *infRun) compute(role opRole, span timeline.Span, gpus []int, d, comm units.Time, ws units.Bytes, deps ...int) int {
	o := taskgraph.Group{GPUs: gpus, Compute: d, Comm: comm, CommKind: timeline.TPComm, Span: span,
		Take: taskgraph.Footprint{Bytes: float64(ws)}, Give: taskgraph.Footprint{Bytes: float64(ws)}}
	for _, g := range gpus {
		r.workspace[g] = max(r.workspace[g], ws)
	}
	return r.addOp(r.g.AddGroup(o, deps...), opMeta{role: role, gpus: gpus, deps: deps, dur: d + comm})
}

// message sends bytes from src to dst after dep.
func (r *infRun) message(src, dst int, bytes units.Bytes, step, dep int) int {
	id := r.g.AddMessage(r.p2p, collective.Transfer{Src: src, Dst: dst, Bytes: max(bytes, 1), Phase: collective.PhasePipeline, Step: step}, dep)
	return r.addOp(id, opMeta{role: roleMessage, gpus: []int{src, dst}, deps: []int{dep}})
}

// delay waits d after dep, holding nothing.
func (r *infRun) delay(d units.Time, dep int) int {
	if d <= 0 {
		return dep
	}
	id := r.g.AddDelay(d, dep)
	return r.addOp(id, opMeta{role: roleDelay, deps: []int{dep}})
}

// join waits for deps.
func (r *infRun) join(deps ...int) int {
	if len(deps) == 1 {
		return deps[0]
	}
	return r.addOp(r.g.AddJoin(deps...), opMeta{deps: deps})
}

// buildPipeline adds every replica's microbatches through the pipeline.
func (r *infRun) buildPipeline() {
	mb := MicrobatchCount(&r.s)
	sizes := SplitRequests(r.in.Requests, mb)
	for rep := 0; rep < r.dp; rep++ {
		for j := range mb {
			r.batches = append(r.batches, timeline.ServedBatch{Replica: rep, Index: j, Requests: sizes[j]})
			r.tokenOp = append(r.tokenOp, [2]int{-1, -1})
		}
	}
	for rep := 0; rep < r.dp; rep++ {
		input := make([]int, mb) // by microbatch: what stage 0's next step waits for, −1 for nothing
		for j := range input {
			input[j] = -1
		}
		for k := 0; k < r.in.Output; k++ {
			for j := range mb {
				input[j] = r.step(rep, j, k, sizes[j], input[j])
			}
		}
	}
}

// step adds microbatch j's step k (k = 0 is the prefill) of b requests
// through every stage of replica rep after the op in, and returns what
// the next step of j waits for.
func (r *infRun) step(rep, j, k, b, in int) int {
	tokens := b // one new token per request
	if k == 0 {
		tokens = b * r.in.Prompt
	}
	var deps []int
	if in >= 0 {
		deps = []int{in}
	}
	batch := rep*MicrobatchCount(&r.s) + j
	label := "D" + strconv.Itoa(j)
	kind := timeline.Decode
	if k == 0 {
		label, kind = "P"+strconv.Itoa(j), timeline.Prefill
	}
	var last int
	for st, stage := range r.stages {
		gpus := r.stageGPUs(rep, st)
		if h := r.in.HostTime; h > 0 && !r.in.AsyncHost {
			host := r.compute(roleHost, timeline.Span{Kind: timeline.Host, Microbatch: j, Stage: st, Label: "H"}, gpus, h, 0, 0, deps...)
			deps = []int{host}
		}
		cost := r.cost(stage, k, b)
		comm := TPCommTime(tokens, stage.Layers, r.m.Hidden, r.tp, r.nv.Bandwidth, r.nv.Latency)
		ws := stage.ActivationBytes(tokens, b)
		op := r.compute(roleCompute, timeline.Span{Kind: kind, Microbatch: j, Stage: st, Label: label}, gpus, cost.Time, comm, ws, deps...)
		r.meta[op].kvAdd, r.meta[op].kvGPUs = units.Bytes(tokens)*stage.KVBytesPerToken(), gpus
		last = op
		if st == r.pp-1 {
			break
		}
		// Each tensor rank sends its share of the hidden states to the
		// same rank of the next stage.
		sent := r.delay(r.in.SendOverhead, op)
		bytes := units.Bytes(b * r.m.Hidden * BytesPerElement / r.tp)
		if k == 0 {
			bytes *= units.Bytes(r.in.Prompt)
		}
		next := r.stageGPUs(rep, st+1)
		msgs := make([]int, r.tp)
		for q := range msgs {
			msgs[q] = r.message(gpus[q], next[q], bytes, k, sent)
		}
		deps = []int{r.join(msgs...)}
	}
	return r.sample(rep, j, k, b, batch, last)
}

// cost prices step k (0: the prefill) of b requests on st: by the op
// model, or by the roofline at training.efficiency when that is set. A
// pricing error is kept in r.err (Simulate returns it) and costs 1 ns.
func (r *infRun) cost(st Stage, k, b int) Cost {
	if r.ops == nil && k == 0 {
		return st.Prefill(b, r.in.Prompt)
	}
	if r.ops == nil {
		return st.Decode(b, r.in.Prompt+k)
	}
	d, a := r.split(st, k, b)
	return d.plus(a)
}

// split is cost as the weight math and the attention over the cache.
func (r *infRun) split(st Stage, k, b int) (dense, attn Cost) {
	q, context := 1, r.in.Prompt+k
	if k == 0 {
		q, context = r.in.Prompt, r.in.Prompt
	}
	if r.ops == nil {
		return st.Dense(b*q, b), st.Attention(b, context, k == 0)
	}
	dense, attn, err := r.ops.Step(st, b, q, context)
	if err != nil {
		r.err = cmp.Or(r.err, err)
		return Cost{Time: 1}, Cost{Time: 1}
	}
	return dense, attn
}

// sample draws microbatch j's tokens of step k after the last stage's op
// and returns what stage 0's next step waits for (−1 after the last step).
func (r *infRun) sample(rep, j, k, b, batch, last int) int {
	lastGPUs := r.stageGPUs(rep, r.pp-1)
	first := r.stageGPUs(rep, 0)
	token := last
	from := lastGPUs[0]
	span := timeline.Span{Kind: timeline.Sample, Microbatch: j, Stage: r.pp - 1, Label: "S" + strconv.Itoa(j)}
	switch {
	case r.in.Sampling == SampleCPU:
		cpu := r.n + rep
		logits := units.Bytes(b * r.m.Vocab * LogitBytes)
		copied := r.message(from, cpu, logits, k, last)
		token = r.compute(roleCPU, span, []int{cpu}, max(r.in.CPUSampleTime, 1), 0, 0, copied)
		from = cpu
	case r.in.SampleTime > 0:
		token = r.compute(roleCompute, span, lastGPUs, r.in.SampleTime, 0, 0, last)
	}
	if k == 0 {
		r.tokenOp[batch][0] = token
	}
	if k == r.in.Output-1 {
		r.tokenOp[batch][1] = token
		return -1
	}
	if from == first[0] && len(first) == 1 {
		return token
	}
	// The sampled token ids go to every rank of stage 0.
	msgs := make([]int, 0, len(first))
	for _, g := range first {
		if g != from {
			msgs = append(msgs, r.message(from, g, units.Bytes(b*4), k, token))
		}
	}
	if len(msgs) == 0 {
		return token
	}
	return r.join(msgs...)
}

// buildShared adds the shared-weight replicas: GPU rep serves its
// requests layer by layer.
func (r *infRun) buildShared() {
	mb := MicrobatchCount(&r.s)
	sizes := SplitRequests(r.in.Requests, mb)
	L := r.m.Layers
	for rep := 0; rep < r.dp; rep++ {
		for j := range mb {
			r.batches = append(r.batches, timeline.ServedBatch{Replica: rep, Index: j, Requests: sizes[j]})
			r.tokenOp = append(r.tokenOp, [2]int{-1, -1})
		}
	}
	for rep := 0; rep < r.dp; rep++ {
		prev := -1         // the replica's last op
		var borrowed []int // its ops that used a borrowed layer, in order
		for k := 0; k < r.in.Output; k++ {
			for j := range mb {
				b := sizes[j]
				for l := 0; l < L; l++ {
					prev = r.sharedLayer(rep, j, k, l, b, prev, &borrowed)
				}
				prev = r.sample(rep, j, k, b, rep*mb+j, prev)
				if prev < 0 {
					prev = r.tokenOp[rep*mb+j][1]
				}
			}
		}
	}
}

// sharedLayer adds layer l of microbatch j's step k on replica rep after
// prev and returns its last op.
func (r *infRun) sharedLayer(rep, j, k, l, b, prev int, borrowed *[]int) int {
	layer := Stage{Model: r.m, Layers: 1, First: l == 0, Last: l == r.m.Layers-1, TP: 1, GPU: r.gpu, Efficiency: r.s.Training.Efficiency}
	tokens := b
	// Labelled by microbatch like a pipeline's spans; Stage holds the layer.
	kind, label := timeline.Decode, "D"+strconv.Itoa(j)
	if k == 0 {
		tokens, kind, label = b*r.in.Prompt, timeline.Prefill, "P"+strconv.Itoa(j)
	}
	var deps []int
	if prev >= 0 {
		deps = []int{prev}
	}
	kvAdd := units.Bytes(tokens) * layer.KVBytesPerToken()
	span := timeline.Span{Kind: kind, Microbatch: j, Stage: l, Label: label}
	owner := r.shared.Owner(l)
	ws := layer.ActivationBytes(tokens, b)
	switch {
	case owner == rep:
		op := r.compute(roleCompute, span, []int{rep}, r.cost(layer, k, b).Time, 0, ws, deps...)
		r.meta[op].kvAdd, r.meta[op].kvGPUs = kvAdd, []int{rep}
		return op
	case r.shared.Fetch:
		// The layer's weights come from the owner into a free half of
		// the double buffer: free once the borrowed layer two before is
		// done.
		free := prev
		if n := len(*borrowed); n >= 2 {
			free = (*borrowed)[n-2]
		}
		var fetch int
		if free >= 0 {
			fetch = r.message(owner, rep, LayerWeightBytes(r.m), k, free)
		} else {
			fetch = r.message(owner, rep, LayerWeightBytes(r.m), k, r.join())
		}
		op := r.compute(roleCompute, span, []int{rep}, r.cost(layer, k, b).Time, 0, ws, append(deps, fetch)...)
		r.meta[op].kvAdd, r.meta[op].kvGPUs = kvAdd, []int{rep}
		*borrowed = append(*borrowed, op)
		return op
	}
	// Ship: attention over the local cache here, the weight math at the
	// owner, activations there and back.
	dense, attn := r.split(layer, k, b)
	a := r.compute(roleCompute, timeline.Span{Kind: kind, Microbatch: j, Stage: l, Label: label}, []int{rep}, attn.Time, 0, ws, deps...)
	r.meta[a].kvAdd, r.meta[a].kvGPUs = kvAdd, []int{rep}
	bytes := units.Bytes(tokens * r.m.Hidden * BytesPerElement)
	out := r.message(rep, owner, bytes, k, a)
	remote := r.compute(roleCompute, timeline.Span{Kind: kind, Microbatch: j, Stage: l, Label: label + " for GPU " + strconv.Itoa(rep)},
		[]int{owner}, dense.Time, 0, ws, out)
	return r.message(owner, rep, bytes, k, remote)
}
