package paramserver

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/compression"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Simulate runs the scenario's sync.iterations iterations through its
// parameter servers and returns the timeline, with an Async record of
// every worker's iterations. s must be valid (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	n, servers := s.NumGPUs(), s.Sync.Servers
	psBW := s.Sync.ServerBandwidth
	if psBW == 0 {
		psBW = s.Link.Bandwidth
	}
	t := topo.ParameterServer(n, servers, topo.Port{Bandwidth: s.Link.Bandwidth, Latency: s.Link.Latency},
		topo.Port{Bandwidth: psBW, Latency: s.Link.Latency})
	p := &psRun{s: s, n: n, servers: servers, iters: s.Iterations, g: taskgraph.New(t, s.Title())}
	p.build()
	return p.g.Play("paramserver", p.record)
}

// psRun builds and observes one parameter-server run.
type psRun struct {
	s                 scenario.Scenario
	n, servers, iters int
	g                 *taskgraph.Graph
	coll              taskgraph.Channel // every push and pull
	gate, push        [][]int           // by worker, iteration: the op that starts the pull, the op after the last push
	rules             *staleness        // nil for bsp and asp
	opWorker          map[int][2]int
	progress
}

// progress is what a parameter-server run observes as it goes.
type progress struct {
	// gateAt and pushAt are when the gates and pushes finished.
	gateAt, pushAt [][]units.Time
	// lag and limit are each iteration's version lag and the largest lag
	// the rules allowed, at its gate.
	lag, limit [][]int
	done       []int // iterations each worker has pushed so far
}

// build adds every op: per iteration and worker a gate, the pulls, the
// compute, the pushes.
func (p *psRun) build() {
	s, g := p.s, p.g
	ranks := p.n + p.servers
	// Size the message lists once: two per worker, iteration and server.
	msgs := 2 * p.n * p.iters * p.servers
	p.coll = g.AddChannel(collective.Schedule{Op: collective.OpPushPull, Algorithm: "ps", Ranks: ranks, Bytes: s.Collective.Size, Servers: p.servers,
		Transfers: make([]collective.Transfer, 0, msgs)}, taskgraph.Identity(ranks), "dp")
	g.Reserve(msgs+6*p.n*p.iters, msgs, 0)
	rng := s.Rand()
	p.gate, p.push = grid(p.n, p.iters, 0), grid(p.n, p.iters, 0)
	p.gateAt, p.pushAt = gridTime(p.n, p.iters), gridTime(p.n, p.iters)
	p.lag, p.limit, p.done = grid(p.n, p.iters, 0), grid(p.n, p.iters, 0), make([]int, p.n)
	p.opWorker = make(map[int][2]int, 2*p.n*p.iters)
	mode := s.Sync.Mode
	if mode == scenario.SyncSSP || mode == scenario.SyncDSSP {
		p.rules = newStaleness(mode, s.Sync.Staleness, s.Sync.StalenessRange, p.n, p.iters, g.Release)
	}
	for k := 0; k < p.iters; k++ {
		for i := 0; i < p.n; i++ {
			p.gate[i][k] = p.addGate(i, k)
			p.opWorker[p.gate[i][k]] = [2]int{i, k}
			last := p.iteration(i, k, rng)
			p.push[i][k] = g.AddJoin(last...)
			p.opWorker[p.push[i][k]] = [2]int{i, -1 - k}
		}
	}
	g.OnFinish(p.observe)
	if p.rules != nil {
		g.AfterFinish(func(id int) {
			if wk, ok := p.opWorker[id]; ok && wk[1] < 0 {
				p.rules.pushed(wk[0], g.Now())
			}
		})
	}
}

// addGate adds the op after which worker i pulls for iteration k.
func (p *psRun) addGate(i, k int) int {
	g := p.g
	if k == 0 {
		return g.AddJoin()
	}
	var gate int
	if p.s.Sync.Mode == scenario.SyncBSP {
		deps := make([]int, p.n)
		for j := range deps {
			deps[j] = p.push[j][k-1]
		}
		gate = g.AddJoin(deps...)
	} else {
		gate = g.AddJoin(p.push[i][k-1])
	}
	if p.rules != nil && p.rules.held(i, k) {
		g.Hold(gate)
		p.rules.gates[i][k] = gate
	}
	return gate
}

// iteration adds worker i's pulls, compute and pushes of iteration k after
// its gate, and returns the pushes.
func (p *psRun) iteration(i, k int, rng *rand.Rand) []int {
	s, g := p.s, p.g
	gate := p.gate[i][k]
	pulls := make([]int, 0, p.servers)
	for j := 0; j < p.servers; j++ {
		pulls = append(pulls, g.AddMessage(p.coll, collective.Transfer{Src: p.n + j, Dst: i, Bytes: p.shard(j, false), Phase: collective.PhasePull, Step: k}, gate))
	}
	after := g.AddJoin(pulls...)
	speed := s.Sync.Speed(i)
	fwd, bwd := p.computeTime(rng, s.Compute.Forward, speed), p.computeTime(rng, s.Compute.Backward, speed)
	if c := p.compressCost(); c > 0 {
		after = g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Compress, Microbatch: k, Label: "D" + strconv.Itoa(k)}, c, after)
	}
	f := g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Forward, Microbatch: k, Label: "F" + strconv.Itoa(k)}, fwd, after)
	b := g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Backward, Microbatch: k, Label: "B" + strconv.Itoa(k)}, bwd, f)
	if c := p.compressCost(); c > 0 {
		b = g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Compress, Microbatch: k, Label: "C" + strconv.Itoa(k)}, c, b)
	}
	pushes := make([]int, 0, p.servers)
	for j := 0; j < p.servers; j++ {
		pushes = append(pushes, g.AddMessage(p.coll, collective.Transfer{Src: i, Dst: p.n + j, Bytes: p.shard(j, true), Phase: collective.PhasePush, Step: k}, b))
	}
	return pushes
}

// shard is the bytes of server j's part of the model on the wire, after
// compression: ratio of them, or with Slim-DP (Sun et al. 2017) ratio of
// its parameters, 4-byte (fp32) values, each pushed with a 4-byte index
// that names it; a pull returns the values of the subset the worker
// asked for, in its order, so it carries no index.
func (p *psRun) shard(j int, push bool) units.Bytes {
	b, c := collective.ChunkBytes(p.s.Collective.Size, p.servers, j), p.s.Compression
	if c.Method != scenario.CompressSlimDP {
		return compression.Bytes(b, c.Ratio)
	}
	index := 0
	if push {
		index = slimIndexBytes
	}
	_, wire := compression.Sparse(b, c.Ratio, slimValueBytes, index)
	return wire
}

// The encoding of a Slim-DP message: fp32 parameters and int32 positions.
// Slim-DP's own encoding of the subset is not in our notes (UNCONFIRMED);
// this is the plain sparse one, an index beside every value pushed.
const slimValueBytes, slimIndexBytes = 4, 4

// compressCost is the compute to compress (or decompress) the whole model
// once: compression.time_per_mib per MiB of the uncompressed buffer.
func (p *psRun) compressCost() units.Time {
	return compression.Time(p.s.Compression.TimePerMiB, p.s.Collective.Size)
}

// computeTime is a worker's compute time d at the given speed, spread
// uniformly by ±compute.jitter and, with straggler.cv, slowed by the same
// lognormal factor of mean 1 as a training run's ops
// (scenario.StragglerSigma), all drawn from rng in a fixed order.
func (p *psRun) computeTime(rng *rand.Rand, d units.Time, speed float64) units.Time {
	s := p.s
	mu, sigma := scenario.StragglerSigma(s.Straggler.CV)
	sp := workload.Spread{Jitter: s.Compute.Jitter, Straggle: s.Straggler.CV > 0, Mu: mu, Sigma: sigma}
	return sp.Time(rng, d, speed)
}

// observe notes when gates and pushes finish.
func (p *psRun) observe(id int) {
	wk, ok := p.opWorker[id]
	if !ok {
		return
	}
	now := p.g.Now()
	i, k := wk[0], wk[1]
	if k >= 0 {
		p.gateAt[i][k] = now
		p.lag[i][k] = k - minOf(p.done)
		switch {
		case p.rules != nil:
			p.limit[i][k] = p.rules.limitOf(i, k)
		case p.s.Sync.Mode == scenario.SyncBSP:
			p.limit[i][k] = 0
		default:
			p.limit[i][k] = -1
		}
		return
	}
	k = -1 - k
	p.pushAt[i][k] = now
	p.done[i]++
}

// record writes the run's Async record: every iteration with its lag and
// the updates it missed.
func (p *psRun) record() {
	s := p.s
	a := &timeline.Async{Mode: s.Sync.Mode, Bound: -1}
	switch s.Sync.Mode {
	case scenario.SyncBSP:
		a.Bound = 0
	case scenario.SyncSSP, scenario.SyncDSSP:
		a.Bound = s.Sync.Staleness
	}
	a.Workers, a.Speeds = taskgraph.Identity(p.n), make([]float64, p.n)
	for i := range a.Speeds {
		a.Speeds[i] = s.Sync.Speed(i)
	}
	for j := 0; j < p.servers; j++ {
		a.Servers = append(a.Servers, p.n+j)
	}
	xs := &p.g.Timeline().Transfers
	for i := range xs.Len() {
		a.Bytes += xs.At(i).Bytes
	}
	// Every push is one update of the server's model, except under BSP,
	// where a round of pushes is one.
	var pushes []units.Time
	for i := range p.pushAt {
		pushes = append(pushes, p.pushAt[i]...)
	}
	sort.Slice(pushes, func(i, j int) bool { return pushes[i] < pushes[j] })
	for i := 0; i < p.n; i++ {
		for k := 0; k < p.iters; k++ {
			it := timeline.WorkerIteration{Worker: i, Index: k, Start: p.gateAt[i][k], End: p.pushAt[i][k],
				Lag: p.lag[i][k], Limit: p.limit[i][k]}
			if k > 0 {
				it.Wait = it.Start - p.pushAt[i][k-1]
			}
			if s.Sync.Mode != scenario.SyncBSP {
				// Pushes in (Start, End], less its own.
				it.Staleness = countIn(pushes, it.Start, it.End) - 1
			}
			a.Iterations = append(a.Iterations, it)
		}
	}
	its := a.Iterations
	sort.SliceStable(its, func(i, j int) bool {
		return cmp.Or(cmp.Compare(its[i].Start, its[j].Start), cmp.Compare(its[i].Worker, its[j].Worker)) < 0
	})
	p.g.Timeline().Async = a
}

// countIn counts the sorted times in (lo, hi].
func countIn(sorted []units.Time, lo, hi units.Time) int {
	a, _ := slices.BinarySearch(sorted, lo+1)
	b, _ := slices.BinarySearch(sorted, hi+1)
	return b - a
}

func minOf(v []int) int {
	m := v[0]
	for _, x := range v[1:] {
		m = min(m, x)
	}
	return m
}

func grid(n, k, v int) [][]int {
	out := make([][]int, n)
	for i := range out {
		out[i] = make([]int, k)
		for j := range out[i] {
			out[i][j] = v
		}
	}
	return out
}

func gridTime(n, k int) [][]units.Time {
	out := make([][]units.Time, n)
	for i := range out {
		out[i] = make([]units.Time, k)
	}
	return out
}
