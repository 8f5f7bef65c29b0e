package localsgd

import (
	"cmp"
	"slices"
	"sort"
	"strconv"

	"paraplay/sim/collective"
	"paraplay/sim/compression"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// Simulate runs the scenario's sync.iterations iterations of local SGD
// and returns the timeline, with an Async record of every worker's
// iterations. s must be valid (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	t, err := nccltest.Topology(s)
	if err != nil {
		return nil, err
	}
	l := &localSGD{s: s, n: s.NumGPUs(), iters: s.Iterations, layers: s.Sync.Layers, period: s.Sync.Period,
		g: taskgraph.New(t, s.Title())}
	l.at = map[int]units.Time{}
	l.g.OnFinish(func(id int) {
		if l.watch[id] {
			l.at[id] = l.g.Now()
		}
	})
	if err := l.build(t); err != nil {
		return nil, err
	}
	return l.g.Play("localsgd", l.record)
}

// localSGD builds one local-SGD run.
type localSGD struct {
	s                        scenario.Scenario
	n, iters, layers, period int
	g                        *taskgraph.Graph
	t                        *topo.Topology
	syncs                    [][]syncRecord // by iteration: the averagings it starts
	watch                    map[int]bool
	at                       map[int]units.Time // finish times of watched ops
	lastCompute              [][]int            // by worker, iteration: its last compute op
}

// syncRecord is one layer group's averaging: the op after which each rank
// has its averaged copy.
type syncRecord struct {
	group int
	done  []int
}

// syncs reports whether layer group gr is averaged in iteration k.
func (l *localSGD) syncsIn(gr, k int) bool {
	return k%l.period == l.period-1-gr%l.period
}

// build adds the compute of every worker and iteration, layer group by
// layer group, and the averagings.
func (l *localSGD) build(t *topo.Topology) error {
	s, g := l.s, l.g
	l.t = t
	rng := s.Rand()
	// Op times spread as a parameter server's workers' (with straggler.cv,
	// the lognormal of scenario.StragglerSigma).
	mu, sigma := scenario.StragglerSigma(s.Straggler.CV)
	spread := workload.Spread{Jitter: s.Compute.Jitter, Straggle: s.Straggler.CV > 0, Mu: mu, Sigma: sigma}
	l.syncs = make([][]syncRecord, l.iters)
	l.watch = map[int]bool{}
	l.lastCompute = grid(l.n, l.iters, -1)
	// waitFor[i][gr] is what worker i's next forward through group gr
	// waits for: its averaged copy, or nothing.
	waitFor := grid(l.n, l.layers, -1)
	prev := make([]int, l.n) // each worker's last compute op
	for i := range prev {
		prev[i] = -1
	}
	for k := 0; k < l.iters; k++ {
		ready := grid(l.layers, l.n, -1) // by group, worker: its gradients are final
		for i := 0; i < l.n; i++ {
			speed := s.Sync.Speed(i)
			fwd := split(spread.Time(rng, s.Compute.Forward, speed), l.layers)
			bwd := split(spread.Time(rng, s.Compute.Backward, speed), l.layers)
			var f int
			for gr := 0; gr < l.layers; gr++ {
				deps := []int{}
				if prev[i] >= 0 {
					deps = append(deps, prev[i])
				}
				if waitFor[i][gr] >= 0 {
					deps = append(deps, waitFor[i][gr])
				}
				f = g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Forward, Microbatch: k, Stage: gr, Label: "F" + strconv.Itoa(k)}, fwd[gr], deps...)
				prev[i] = f
			}
			for gr := l.layers - 1; gr >= 0; gr-- {
				b := g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Backward, Microbatch: k, Stage: gr, Label: "B" + strconv.Itoa(k)}, bwd[gr], prev[i])
				prev[i] = b
				if l.syncsIn(gr, k) {
					if c := compression.Time(s.Compression.TimePerMiB, l.groupBytes(gr, false)); c > 0 {
						prev[i] = g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Compress, Microbatch: k, Stage: gr, Label: "C" + strconv.Itoa(k)}, c, b)
					}
					ready[gr][i] = prev[i]
				}
			}
			l.lastCompute[i][k] = prev[i]
			l.watch[prev[i]] = true
		}
		for gr := l.layers - 1; gr >= 0; gr-- {
			if !l.syncsIn(gr, k) {
				continue
			}
			done, err := l.average(gr, ready[gr])
			if err != nil {
				return err
			}
			for i := range done {
				waitFor[i][gr] = done[i]
				l.watch[done[i]] = true
			}
			l.syncs[k] = append(l.syncs[k], syncRecord{group: gr, done: done})
		}
	}
	return nil
}

// groupBytes is layer group gr's share of the model, compressed on the
// wire unless raw.
func (l *localSGD) groupBytes(gr int, wire bool) units.Bytes {
	b := collective.ChunkBytes(l.s.Collective.Size, l.layers, gr)
	if wire {
		return compression.Bytes(b, l.s.Compression.Ratio)
	}
	return b
}

// average adds the all-reduce of layer group gr, rank i starting after
// ready[i], and returns per rank the op after which it is done.
func (l *localSGD) average(gr int, ready []int) ([]int, error) {
	g := l.g
	sc := l.s
	sc.Collective.Size = l.groupBytes(gr, true)
	sch, err := nccltest.Schedule(sc, l.t)
	if err != nil {
		return nil, err
	}
	first := g.AddSchedule(sch, taskgraph.Identity(l.n), ready, "dp")
	done := make([]int, l.n)
	for r := range done {
		done[r] = g.AddJoin()
	}
	for i, tr := range sch.Transfers {
		g.Depend(done[tr.Dst], first+i)
		g.Depend(done[tr.Src], first+i)
	}
	for r := range done {
		if g.Waiting(done[r]) == 0 {
			g.Depend(done[r], ready[r]) // a rank that sends nothing is done when it is ready
		}
	}
	return done, nil
}

// record writes the Async record: each worker's iterations and the local
// steps its model has taken since its oldest layer group was averaged.
func (l *localSGD) record() {
	s := l.s
	tl := l.g.Timeline()
	a := &timeline.Async{Mode: Name, Bound: l.period, Workers: taskgraph.Identity(l.n), Speeds: make([]float64, l.n)}
	for i := range a.Speeds {
		a.Speeds[i] = s.Sync.Speed(i)
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		a.Bytes += x.Bytes
	}
	start := grid(l.n, l.iters, units.Time(0))
	seen := make([][]bool, l.n)
	for i := range seen {
		seen[i] = make([]bool, l.iters)
	}
	for _, sp := range tl.Spans {
		if sp.GPU < l.n && !seen[sp.GPU][sp.Microbatch] {
			seen[sp.GPU][sp.Microbatch] = true
			start[sp.GPU][sp.Microbatch] = sp.Start // spans are sorted by start
		}
	}
	lastSync := make([]int, l.layers) // iteration of each group's last averaging, −1 for none
	for gr := range lastSync {
		lastSync[gr] = -1
	}
	for k := 0; k < l.iters; k++ {
		lag := 0
		for _, j := range lastSync {
			lag = max(lag, k-1-j)
		}
		for i := 0; i < l.n; i++ {
			it := timeline.WorkerIteration{Worker: i, Index: k, Start: start[i][k], End: l.at[l.lastCompute[i][k]],
				Lag: lag, Limit: l.period - 1}
			for _, r := range l.syncs[k] {
				it.End = max(it.End, l.at[r.done[i]])
			}
			if k > 0 {
				it.Wait = max(0, it.Start-l.at[l.lastCompute[i][k-1]])
			}
			a.Iterations = append(a.Iterations, it)
		}
		for _, r := range l.syncs[k] {
			lastSync[r.group] = k
		}
	}
	its := a.Iterations
	sort.SliceStable(its, func(i, j int) bool {
		return cmp.Or(cmp.Compare(its[i].Start, its[j].Start), cmp.Compare(its[i].Worker, its[j].Worker)) < 0
	})
	tl.Async = a
}

// split cuts d into n parts that add up to d.
func split(d units.Time, n int) []units.Time {
	out := make([]units.Time, n)
	for i := range out {
		out[i] = max(1, d/units.Time(n))
	}
	out[n-1] = max(1, d-units.Time(n-1)*(d/units.Time(n)))
	return out
}

// grid is a rows × cols table of v.
func grid[T any](rows, cols int, v T) [][]T {
	return slices.Collect(slices.Chunk(slices.Repeat([]T{v}, rows*cols), cols))
}
