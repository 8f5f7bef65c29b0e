package run

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/engine"
	"paraplay/sim/fabric"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// simulateParameterServer runs sync.iterations iterations of data-parallel
// training through parameter servers (Li et al., OSDI 2014): in iteration
// k, worker i pulls each server's shard of the model, runs its forward and
// backward (compute.forward and compute.backward divided by its speed
// factor, spread by compute.jitter), and pushes its gradient shard by
// shard. Every message crosses the fabric: the workers' and the servers'
// ports on one switch, one message at a time per port (the single-port
// model of the α–β literature). The servers' arithmetic is not charged.
//
// The synchronisation decides when worker i may pull for iteration k:
//
//	bsp   once every worker has pushed iteration k−1 (a barrier)
//	asp   once it has pushed k−1 itself
//	ssp   once it has pushed k−1 and every worker has pushed k−s
//	      (Ho et al., NeurIPS 2013), so no worker runs more than s ahead
//	dssp  as ssp with s_L = staleness, except that when a worker would
//	      block, the controller may grant it up to staleness_range more
//	      iterations, chosen from recent iteration times (staleness.go)
//
// BSP and ASP are plain dependencies of the task graph; SSP and DSSP hold
// each pull and release it from the push events, so the tests comparing
// SSP with s = 0 to BSP and a huge s to ASP compare two mechanisms.
func simulateParameterServer(s scenario.Scenario) (*timeline.Timeline, error) {
	n, servers := s.NumGPUs(), s.Sync.Servers
	psBW := s.Sync.ServerBandwidth
	if psBW == 0 {
		psBW = s.Link.Bandwidth
	}
	t := topo.ParameterServer(n, servers, topo.Port{Bandwidth: s.Link.Bandwidth, Latency: s.Link.Latency},
		topo.Port{Bandwidth: psBW, Latency: s.Link.Latency})
	tl := newTimeline(t, s.Title())
	eng := &engine.Engine{}
	p := &psRun{s: s, n: n, servers: servers, iters: s.Iterations, g: newGraph(eng, fabric.New(t, eng), len(t.GPUs), tl)}
	p.build()
	tl.End = p.g.execute()
	if p.g.failed != nil {
		return nil, p.g.failed
	}
	p.g.collectives()
	p.record()
	sortTimeline(tl)
	if err := tl.Validate(); err != nil {
		return nil, fmt.Errorf("run: internal error, the timeline is inconsistent: %w", err)
	}
	return tl, nil
}

// psRun builds and observes one parameter-server run.
type psRun struct {
	s                 scenario.Scenario
	n, servers, iters int
	g                 *graph
	coll              int     // the placed schedule that holds every push and pull
	gate, push        [][]int // by worker, iteration: the op that starts the pull, the op after the last push
	// gateAt and pushAt are when those ops finished; filled as the run goes.
	gateAt, pushAt [][]units.Time
	// lag and limit are each iteration's version lag and the largest lag
	// the rules allowed, at its gate.
	lag, limit [][]int
	done       []int      // iterations each worker has pushed so far
	rules      *staleness // nil for bsp and asp
	opWorker   map[int32][2]int
}

// build adds every op: per iteration and worker a gate, the pulls, the
// compute, the pushes.
func (p *psRun) build() {
	s, g := p.s, p.g
	ranks := p.n + p.servers
	c := g.addPlaced(collective.Schedule{Op: "push-pull", Algorithm: "ps", Ranks: ranks, Bytes: s.Collective.Size, Servers: p.servers},
		identity(ranks), nil, "dp")
	p.coll = c
	// Size the message lists once: two per worker, iteration and server.
	msgs := 2 * p.n * p.iters * p.servers
	g.colls[c].sch.Transfers = make([]collective.Transfer, 0, msgs)
	g.xfers = make([]xferRef, 0, msgs)
	g.out.Transfers = make([]timeline.Transfer, 0, msgs)
	g.ops = make([]op, 0, msgs+6*p.n*p.iters)
	rng := s.Rand()
	p.gate, p.push = grid(p.n, p.iters, 0), grid(p.n, p.iters, 0)
	p.gateAt, p.pushAt = gridTime(p.n, p.iters), gridTime(p.n, p.iters)
	p.lag, p.limit, p.done = grid(p.n, p.iters, 0), grid(p.n, p.iters, 0), make([]int, p.n)
	p.opWorker = make(map[int32][2]int, 2*p.n*p.iters)
	mode := s.Sync.Mode
	if mode == scenario.SyncSSP || mode == scenario.SyncDSSP {
		p.rules = newStaleness(mode, s.Sync.Staleness, s.Sync.StalenessRange, p.n, p.iters, g.release)
	}
	for k := 0; k < p.iters; k++ {
		for i := 0; i < p.n; i++ {
			p.gate[i][k] = p.addGate(i, k)
			p.opWorker[int32(p.gate[i][k])] = [2]int{i, k}
			last := p.iteration(i, k, rng)
			p.push[i][k] = g.addJoin(last...)
			p.opWorker[int32(p.push[i][k])] = [2]int{i, -1 - k}
		}
	}
	g.onFinish = p.observe
	if p.rules != nil {
		g.afterFinish = func(id int32) {
			if wk, ok := p.opWorker[id]; ok && wk[1] < 0 {
				p.rules.pushed(wk[0], g.eng.Now())
			}
		}
	}
}

// addGate adds the op after which worker i pulls for iteration k.
func (p *psRun) addGate(i, k int) int {
	g := p.g
	if k == 0 {
		return g.addJoin()
	}
	var gate int
	if p.s.Sync.Mode == scenario.SyncBSP {
		deps := make([]int, p.n)
		for j := range deps {
			deps[j] = p.push[j][k-1]
		}
		gate = g.addJoin(deps...)
	} else {
		gate = g.addJoin(p.push[i][k-1])
	}
	if p.rules != nil && p.rules.held(i, k) {
		g.hold(gate)
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
		pulls = append(pulls, g.addMessage(p.coll, p.n+j, i, p.shard(j), collective.PhasePull, k, gate))
	}
	after := g.addJoin(pulls...)
	speed := s.Sync.Speed(i)
	fwd, bwd := computeTime(rng, s, s.Compute.Forward, speed), computeTime(rng, s, s.Compute.Backward, speed)
	if c := p.compressCost(); c > 0 {
		after = g.addCompute(timeline.Span{GPU: i, Kind: timeline.Compress, Microbatch: k, Label: "D" + strconv.Itoa(k)}, c, after)
	}
	f := g.addCompute(timeline.Span{GPU: i, Kind: timeline.Forward, Microbatch: k, Label: "F" + strconv.Itoa(k)}, fwd, after)
	b := g.addCompute(timeline.Span{GPU: i, Kind: timeline.Backward, Microbatch: k, Label: "B" + strconv.Itoa(k)}, bwd, f)
	if c := p.compressCost(); c > 0 {
		b = g.addCompute(timeline.Span{GPU: i, Kind: timeline.Compress, Microbatch: k, Label: "C" + strconv.Itoa(k)}, c, b)
	}
	pushes := make([]int, 0, p.servers)
	for j := 0; j < p.servers; j++ {
		pushes = append(pushes, g.addMessage(p.coll, i, p.n+j, p.shard(j), collective.PhasePush, k, b))
	}
	return pushes
}

// shard is the bytes of server j's part of the model on the wire, after
// compression.
func (p *psRun) shard(j int) units.Bytes {
	return compressed(collective.ChunkBytes(p.s.Collective.Size, p.servers, j), p.s.Compression.Ratio)
}

// compressCost is the compute to compress (or decompress) the whole model
// once: compression.time_per_mib per MiB of the uncompressed buffer.
func (p *psRun) compressCost() units.Time {
	return compressCost(p.s.Compression, p.s.Collective.Size)
}

// computeTime is a worker's compute time d at the given speed, spread
// uniformly by ±compute.jitter and, with straggler.cv, slowed by the same
// lognormal factor of mean 1 as a training run's ops
// (scenario.StragglerSigma), all drawn from rng in a fixed order.
func computeTime(rng *rand.Rand, s scenario.Scenario, d units.Time, speed float64) units.Time {
	mu, sigma := scenario.StragglerSigma(s.Straggler.CV)
	sp := workload.Spread{Jitter: s.Compute.Jitter, Straggle: s.Straggler.CV > 0, Mu: mu, Sigma: sigma}
	return sp.Time(rng, d, speed)
}

// addMessage adds one point-to-point message of the placed schedule coll
// from rank src to rank dst that waits for dep; step numbers the iteration.
func (g *graph) addMessage(coll, src, dst int, bytes units.Bytes, phase string, step, dep int) int {
	c := &g.colls[coll]
	c.sch.Transfers = append(c.sch.Transfers, collective.Transfer{Src: src, Dst: dst, Bytes: bytes, Phase: phase, Step: step})
	g.xfers = append(g.xfers, xferRef{coll: int32(coll), index: int32(len(c.sch.Transfers) - 1)})
	return g.add(op{kind: opTransfer, item: int32(len(g.xfers) - 1)}, []int{dep})
}

// observe notes when gates and pushes finish.
func (p *psRun) observe(id int32) {
	wk, ok := p.opWorker[id]
	if !ok {
		return
	}
	now := p.g.eng.Now()
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
	a.Workers, a.Speeds = identity(p.n), make([]float64, p.n)
	for i := range a.Speeds {
		a.Speeds[i] = s.Sync.Speed(i)
	}
	for j := 0; j < p.servers; j++ {
		a.Servers = append(a.Servers, p.n+j)
	}
	for _, x := range p.g.out.Transfers {
		a.Bytes += x.Bytes
	}
	// Every push is one update of the server's model, except under BSP,
	// where a round of pushes is one.
	var pushes []units.Time
	for i := range p.pushAt {
		pushes = append(pushes, p.pushAt[i]...)
	}
	slices.Sort(pushes)
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
	slices.SortStableFunc(a.Iterations, func(x, y timeline.WorkerIteration) int {
		return cmp.Or(cmp.Compare(x.Start, y.Start), cmp.Compare(x.Worker, y.Worker))
	})
	p.g.out.Async = a
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
