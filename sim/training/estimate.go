package training

import (
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/hw"
	"paraplay/sim/pipeline"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Estimate is what a training scenario costs, worked out from its op costs
// and its pipeline schedule without running it: the peak memory, exactly as
// Simulate records it, and a lower bound on the iteration time.
type Estimate struct {
	// PeakMemory is the largest per-GPU peak: model states, buffers and
	// the memory reserve plus the most activations a GPU holds at once. It equals the largest
	// timeline.Memory.Peak of the run (activations depend only on the
	// order of each device's ops, which the schedule fixes).
	PeakMemory units.Bytes
	// Capacity is one GPU's HBM (0 for ideal GPUs).
	Capacity units.Bytes
	// LowerBound is a time no run of the scenario beats: the longest path
	// through the pipeline's ops with free point-to-point messages and
	// data-parallel collectives, plus the optimizer step (see
	// Estimator.Estimate). Quick leaves it at Work.
	LowerBound units.Time
	// Work is a weaker bound that needs no walk through the schedule: the
	// longest, over pipeline devices, of a few chains the device's ops
	// must follow (workBound). Work ≤ LowerBound.
	Work units.Time
	// Compute, Blocking and Wait split LowerBound on the device that sets
	// it: its compute (recomputation included), its blocking tensor-,
	// context- and expert-parallel communication, and the time it waits
	// for its neighbours (the pipeline bubble even with free messages).
	// Optimizer is its optimizer step.
	Compute, Blocking, Wait, Optimizer units.Time
	// Stream is the part of the device's data-parallel collectives that
	// its ops cannot hide: its communication stream's gradient
	// collectives (and ZeRO-3's gathers) beyond its ops' time, which delay
	// the optimizer step; Gather is ZeRO-1/2's all-gather after the step
	// (streamBound). Both zero off analytic fidelity.
	Stream, Gather units.Time
}

// OOM reports whether the peak exceeds the GPU's memory.
func (e Estimate) OOM() bool { return e.Capacity > 0 && e.PeakMemory > e.Capacity }

// NearOOM reports whether the peak is in the warning zone: above 90% of
// the GPU's memory and within it (timeline.NearOOM).
func (e Estimate) NearOOM() bool { return timeline.NearOOM(e.PeakMemory, e.Capacity) }

// Estimator estimates many training scenarios on the same clusters, reusing
// each cluster's topology and each pipeline schedule it has built. It is not
// safe for concurrent use.
type Estimator struct {
	topos     map[topoKey]*builtTopo
	schedules map[schedKey]*builtSched
	links     map[ringKey]*ringLinks // data-parallel groups' links, per layout (streamBounds)
	over      float64                // Screen's memory limit, in GPU memories
}

// topoKey is what a training topology is built from.
type topoKey struct {
	gpu, intra, inter, network, nodeGPUs string
	slice                                string // cluster.topology and the keys beside it, and parallel.mesh.layout
	nodes, perNode, n                    int
	link                                 scenario.Link
}

type builtTopo struct {
	t     *topo.Topology
	gpu   hw.GPU
	paths *topo.Paths
	ones  []float64 // a compute multiplier of 1 for every GPU
}

type schedKey struct {
	name    string
	p, m, v int
}

// NewEstimator returns an estimator with empty caches.
func NewEstimator() *Estimator {
	return &Estimator{topos: map[topoKey]*builtTopo{}, schedules: map[schedKey]*builtSched{}, links: map[ringKey]*ringLinks{}}
}

// Estimate works out s's peak memory and a lower bound on its iteration.
// s must be a valid training scenario (it is validated here).
//
// The lower bound is safe because of how Simulate lays out an iteration:
// each pipeline device runs its ops one after another in the schedule's
// order, each op taking its compute plus its blocking communication (the
// same op costs Simulate uses); an op also waits for the ops whose data it
// needs. Messages, gradient collectives and ZeRO gathers only add waits, so
// the longest path through these ops with every message free is a lower
// bound, and so is that plus the optimizer step, which runs on the same
// GPUs after the device's last op.
func (e *Estimator) Estimate(s scenario.Scenario) (Estimate, error) {
	return e.estimate(s, walk)
}

// Quick is Estimate without the walk through the schedule: the peak memory
// and Work, with LowerBound = Work. It costs a fraction of Estimate on
// schedules of hundreds of microbatches, which is what lets the planner
// rule most plans out cheaply.
func (e *Estimator) Quick(s scenario.Scenario) (Estimate, error) {
	return e.estimate(s, quick)
}

// Screen is Quick for a search that drops the plans that do not fit: a
// scenario whose peak memory is over over × the GPU's memory (over ≥ 1)
// gets its peak and no bound (Work and LowerBound 0), which saves the
// bound's work on plans a planner only counts.
func (e *Estimator) Screen(s scenario.Scenario, over float64) (Estimate, error) {
	e.over = over
	return e.estimate(s, screen)
}

// How much of an estimate estimate works out.
const (
	quick  = iota // memory and the work bound
	walk          // and the walk through the schedule
	screen        // memory, and the work bound when the peak is within Estimator.over
)

func (e *Estimator) estimate(s scenario.Scenario, mode int) (Estimate, error) {
	if s.Strategy != Name {
		return Estimate{}, fmt.Errorf("strategy: %q; Estimate takes %q scenarios", s.Strategy, Name)
	}
	if err := s.Validate(); err != nil {
		return Estimate{}, err
	}
	// Faults, stragglers, variable sequence lengths and mixed GPUs make op
	// times differ between replicas and iterations; the estimate assumes
	// one plain iteration on one kind of GPU.
	if imperfect(s) {
		return Estimate{}, fmt.Errorf("iterations: Estimate covers one plain iteration; remove faults, stragglers, iterations and data.seq_dist")
	}
	if len(s.Cluster.NodeGPUs) > 0 {
		return Estimate{}, fmt.Errorf("cluster.node_gpus: Estimate covers clusters of one GPU type")
	}
	if SDPOf(&s).Fraction != 0 {
		return Estimate{}, fmt.Errorf("parallel.sdp: Estimate covers replicas that hold the whole model")
	}
	tr, bt, err := e.prepare(s)
	if err != nil {
		return Estimate{}, err
	}
	// One GPU type (node_gpus is refused above): every multiplier is 1,
	// shared across scenarios, so a plan of 16,384 GPUs allocates nothing
	// per GPU. Only a balanced partition reads the groups.
	tr.mult = bt.ones
	if s.Parallel.Partition == "balanced" {
		tr.groups()
	}
	if err := tr.price(); err != nil {
		return Estimate{}, err
	}
	est := Estimate{Capacity: tr.gpu.HBM}
	if tr.real {
		est.PeakMemory = tr.peakMemory(e.schedules[sk(s.Parallel)].inFlight)
	}
	if mode == screen && est.Capacity > 0 && float64(est.PeakMemory) > e.over*float64(est.Capacity) {
		return est, nil
	}
	comm, err := tr.streamBounds(e.links)
	if err != nil {
		return Estimate{}, err
	}
	var counts [][][pipeline.W + 1]units.Time
	if tr.experts == nil { // an expert's exchange may differ by microbatch
		counts = e.schedules[sk(s.Parallel)].counts
	}
	tr.workBound(&est, comm, counts)
	if mode == walk {
		tr.lowerBound(&est, comm)
	}
	return est, nil
}

// prepare builds (or reuses) s's schedule and topology.
func (e *Estimator) prepare(s scenario.Scenario) (*iteration, *builtTopo, error) {
	sk := sk(s.Parallel)
	bs, ok := e.schedules[sk]
	if !ok {
		sch, err := pipeline.New(sk.name, sk.p, sk.m, sk.v)
		if err != nil {
			return nil, nil, fmt.Errorf("parallel.schedule: %w", err)
		}
		bs = &builtSched{sch, opCounts(sch), heldAtForwards(sch)}
		e.schedules[sk] = bs
	}
	c := s.Cluster
	tk := topoKey{c.GPU, c.Intra, c.Inter, c.Network, strings.Join(c.NodeGPUs, ","), c.Topology + "/" + strconv.Itoa(c.Slices) + "/" + strconv.FormatBool(c.Twisted) + "/" + c.Wraparound + "/" + s.Parallel.Mesh.Layout,
		c.Nodes, c.GPUsPerNode, s.NumGPUs(), s.Link}
	bt, ok := e.topos[tk]
	if !ok {
		t, gpu, err := trainingTopology(s)
		if err != nil {
			return nil, nil, err
		}
		bt = &builtTopo{t: t, gpu: gpu, paths: topo.NewPaths(t), ones: make([]float64, len(t.GPUs))}
		for i := range bt.ones {
			bt.ones[i] = 1
		}
		e.topos[tk] = bt
	}
	tr, err := newIterationOn(s, bs.sch, bt.t, bt.paths, bt.gpu, nil)
	return tr, bt, err
}

// sk is the key of p's schedule.
func sk(p scenario.Parallel) schedKey {
	return schedKey{p.Schedule, p.PP, p.Microbatches, p.ChunksArg()}
}

// builtSched is a schedule an estimator has built, with its op counts.
type builtSched struct {
	sch      pipeline.Schedule
	counts   [][][pipeline.W + 1]units.Time
	inFlight [][][]float64 // the activations held at forwards (peak.go)
}

// opCounts is, for each device of sch, chunk and op kind, how many such
// ops the device runs (as units.Time, to multiply op times by), kept with
// the schedule: workBound sums op costs that depend only on the kind and
// the chunk, so count × cost is the same sum without visiting every op of
// a schedule of hundreds of microbatches for every plan.
func opCounts(sch pipeline.Schedule) [][][pipeline.W + 1]units.Time {
	n := make([][][pipeline.W + 1]units.Time, len(sch.Order))
	for d, order := range sch.Order {
		n[d] = make([][pipeline.W + 1]units.Time, sch.Chunks)
		for _, o := range order {
			n[d][o.Chunk][o.Kind]++
		}
	}
	return n
}

// peakMemory is the largest per-GPU peak, computed as Simulate's memory
// tracker computes it: an F takes its stage's activations when it starts,
// the B of the same microbatch and stage gives them back when it ends
// (under 2BP, all but the W's inputs, which its W gives back), and
// a device runs its ops one at a time in order, so the walk through the
// order visits every level the run will. inFlight, when not nil, is the
// schedule's in-flight vectors (peak.go), which give the same peak without
// the walk when backward and weight gradients do not split.
func (tr *iteration) peakMemory(inFlight [][][]float64) units.Bytes {
	var worst units.Bytes
	reserve := reserveOf(tr.gpu, tr.par).Total()
	held := make([]float64, tr.sch.Chunks)
	for d, order := range tr.sch.Order {
		var bytes, peak float64
		if inFlight != nil && tr.heldW == nil {
			peak, order = tr.activationPeak(d, inFlight[d], held), nil
		}
		for _, o := range order {
			k := tr.stageOfDev[d][o.Chunk]
			held := tr.actBytes[k] + tr.expertActivations(k)
			switch {
			case o.Kind == pipeline.F:
				bytes += held
				peak = max(peak, bytes)
			case tr.heldW != nil: // B and W under 2BP (heldw.go)
				take, give, wGive := tr.backwardFootprints(k, taskgraph.Footprint{Bytes: held})
				if o.Kind == pipeline.W {
					take, give = taskgraph.Footprint{}, wGive
				}
				bytes += take.Bytes
				peak = max(peak, bytes)
				bytes = max(0, bytes-give.Bytes)
			case o.Kind == pipeline.B:
				bytes = max(0, bytes-held)
			}
		}
		params, grads, opt := tr.modelStates(tr.stageOfDev[d])
		worst = max(worst, params+grads+opt+tr.zero3Buffer(tr.stageOfDev[d])+reserve+units.Bytes(peak+0.5))
	}
	return worst
}

// workBound fills in est's Work, and LowerBound with Work and its parts.
// On every device d the ops run one after another, and none before the
// first microbatch's forward has come through the model stages below d's
// lowest (start); the device's optimizer step waits for its ops and for
// its data-parallel collectives (streamBound), and what follows the step
// comes after it; when d's last op is a backward, the backwards of that
// microbatch on the stages below it (tail) still follow. Each of these
// is a chain of ops the run must play one after another, so the longest
// is a bound, cheaper than the walk of lowerBound: no op is visited
// twice.
//
// counts, when not nil, are the schedule's op counts (opCounts), which
// stand for the walk through each device's ops when every op's cost
// depends only on its kind and chunk.
func (tr *iteration) workBound(est *Estimate, sb []streamBound, counts [][][pipeline.W + 1]units.Time) {
	fwd := tr.forwardChain()
	for d, order := range tr.sch.Order {
		var compute, comm units.Time
		if counts != nil {
			for ch, n := range counts[d] {
				for kind, k := range n {
					if k > 0 {
						c, b := tr.opCost(pipeline.Op{Kind: pipeline.Kind(kind), Chunk: ch}, d, tr.stageOfDev[d][ch])
						compute += k * c
						comm += k * b
					}
				}
			}
		} else {
			for _, o := range order {
				c, b := tr.opCost(o, d, tr.stageOfDev[d][o.Chunk])
				compute += c
				comm += b
			}
		}
		start := tr.deviceStart(fwd, d)
		opt := tr.optimizerTime(d)
		stream := tr.streamWait(sb[d], d, start+compute+comm)
		wait, t := start, start+compute+comm+stream+opt+sb[d].After
		if tail := tr.backwardTail(order[len(order)-1], d); start+compute+comm+tail > t {
			wait, t, stream, opt = start+tail, start+compute+comm+tail, 0, 0
		}
		if t > est.Work {
			est.Work, est.LowerBound = t, t
			est.Compute, est.Blocking, est.Wait, est.Optimizer = compute, comm, wait, opt
			est.Stream, est.Gather = stream, sb[d].After
			if opt == 0 && stream == 0 {
				est.Gather = 0
			}
		}
	}
}

// lowerBound fills in est's LowerBound and its parts: the longest path
// through one replica's pipeline ops with free messages, each device
// followed by its optimizer step, no earlier than its data-parallel
// collectives allow, and by what follows the step (streamBound).
func (tr *iteration) lowerBound(est *Estimate, sb []streamBound) {
	sch := tr.sch
	m := sch.Microbatches
	// end[kind][k·m+mb] is when op (kind, mb) of model stage k ends; −1
	// until it has run.
	var end [3][]units.Time
	for kind := range end {
		end[kind] = make([]units.Time, tr.stages*m)
		for i := range end[kind] {
			end[kind][i] = -1
		}
	}
	type device struct {
		next                   int
		free, compute, blocked units.Time
	}
	devs := make([]device, sch.Stages)
	left := 0
	for _, o := range sch.Order {
		left += len(o)
	}
	for left > 0 {
		progress := false
		for d := range devs {
			dv := &devs[d]
			order := sch.Order[d]
			for dv.next < len(order) {
				o := order[dv.next]
				k := tr.stageOfDev[d][o.Chunk]
				ready := tr.ready(&end, o, k, m)
				if ready < 0 {
					break
				}
				compute, comm := tr.opCost(o, d, k)
				dv.free = max(dv.free, ready) + compute + comm
				dv.compute += compute
				dv.blocked += comm
				end[o.Kind][k*m+o.Microbatch] = dv.free
				dv.next++
				left--
				progress = true
			}
		}
		if !progress { // a valid schedule cannot deadlock; Validate has run
			panic("run: lowerBound: the schedule deadlocks")
		}
	}
	est.LowerBound = 0
	for d, dv := range devs {
		opt := tr.optimizerTime(d)
		stream := tr.streamWait(sb[d], d, dv.free)
		if t := dv.free + stream + opt + sb[d].After; t > est.LowerBound {
			est.LowerBound = t
			est.Compute, est.Blocking, est.Optimizer = dv.compute, dv.blocked, opt
			est.Wait = dv.free - dv.compute - dv.blocked
			est.Stream, est.Gather = stream, sb[d].After
		}
	}
}

// ready is when op o of model stage k may start given the ops it needs
// (m microbatches), or −1 when one of them has not run yet.
func (tr *iteration) ready(end *[3][]units.Time, o pipeline.Op, k, m int) units.Time {
	i := k*m + o.Microbatch
	switch o.Kind {
	case pipeline.F:
		if k == 0 {
			return 0
		}
		return end[pipeline.F][i-m]
	case pipeline.B:
		f := end[pipeline.F][i]
		if k == tr.stages-1 || f < 0 || tr.sch.LocalLoss {
			return f
		}
		if b := end[pipeline.B][i+m]; b < 0 {
			return -1
		} else {
			return max(f, b)
		}
	}
	return end[pipeline.B][i]
}

// opCost is op o's compute and blocking communication on device d, model stage k, as
// the pipeline's ops lay it out (a zero-length op takes 1ns).
func (tr *iteration) opCost(o pipeline.Op, d, k int) (compute, comm units.Time) {
	compute, comm = tr.op(o, k, tr.sch.SplitBackward)
	comm += tr.expertTail(o, d, k)
	if tr.experts != nil {
		compute += tr.experts.splitCost(tr.opKinds(o.Kind), k)
	}
	if compute == 0 && comm == 0 {
		compute = 1
	}
	return compute, comm
}

// optimizerTime is device d's optimizer step as the graph lays it out (0
// for a synthetic model, which has none).
func (tr *iteration) optimizerTime(d int) units.Time {
	if !tr.real {
		return 0
	}
	return tr.optimizerStep(tr.stageOfDev[d])
}
