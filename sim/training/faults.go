package training

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// iterState is what one iteration of a multi-iteration run looks like:
// where it starts, which replicas still run, the batch's sequence lengths
// and the faults in force.
type iterState struct {
	index  int        // iterations started so far (redone ones count)
	step   int        // the training step it computes
	offset units.Time // its start on the run's clock
	live   []bool     // by data-parallel replica
	// lengths[r][mb] is the sequence length of replica r's microbatch mb
	// (nil: every sequence is model.seq_len).
	lengths [][]int
	// packs[r][mb] are the lengths of the buckets (micro_batch_size
	// sequences each) that data.assign: balanced put in replica r's
	// microbatch mb (nil: microbatch mb holds the bucket lengths[r][mb]);
	// assignSequences fills it.
	packs [][][]int
	// healthy: the predictor's run, with no faults and no jitter.
	healthy  bool
	slow     []slowFault     // fail-slow events by GPU, in force from their At
	spare    []units.Time    // by GPU: when a spare replaced it (0: never)
	degraded map[int]float64 // node → bandwidth kept by its network links
}

// slowFault is a fail-slow event on one GPU.
type slowFault struct {
	gpu    int
	at     units.Time
	factor float64
}

// speed is the share of its speed GPU g keeps at instant t of the run:
// the smallest factor of the fail-slow events on it since it was last
// replaced by a spare.
func (it *iterState) speed(g int, t units.Time) float64 {
	f := 1.0
	for _, s := range it.slow {
		if s.gpu == g && s.at <= t && s.at >= it.spare[g] {
			f = min(f, s.factor)
		}
	}
	return f
}

// degrade scales the network links of the degraded nodes: a link between
// a vertex of node n and the network outside (a NIC's cable to its leaf).
func (it *iterState) degrade(t *topo.Topology) {
	if it.healthy || len(it.degraded) == 0 {
		return
	}
	node := func(v int) int {
		if v < len(t.GPUs) {
			return t.GPUs[v].Node
		}
		return t.Switches[v-len(t.GPUs)].Node
	}
	for i := range t.Links {
		l := &t.Links[i]
		a, b := node(l.From), node(l.To)
		if a >= 0 && b >= 0 {
			continue
		}
		if f, ok := it.degraded[max(a, b)]; ok {
			l.Bandwidth = units.Bandwidth(float64(l.Bandwidth) * f)
		}
	}
}

// jitterSource draws the straggler factors. Each draw is seeded from the
// scenario's seed and the (iteration, op, GPU) it is for, so it does not
// depend on the order in which the engine starts ops.
type jitterSource struct {
	seed      uint64
	mu, sigma float64
	pcg       rand.PCG
	rng       *rand.Rand
}

// factor is the lognormal slowness of op id on GPU g in iteration it:
// exp(μ + σZ) with mean 1 and the scenario's coefficient of variation
// (scenario.StragglerSigma). Lognormal because slowness multiplies (a
// clock that drops by a share, a kernel that waits on a busy bus), stays
// positive and has the long right tail measured op times show; a gamma
// would do as well at small cv, where the two are nearly equal.
func (j *jitterSource) factor(it int, id int, g int) float64 {
	if j.sigma == 0 {
		return 1
	}
	if j.rng == nil {
		j.rng = rand.New(&j.pcg)
	}
	j.pcg.Seed(j.seed, uint64(it)<<40^uint64(id)<<20^uint64(g))
	return math.Exp(j.mu + j.sigma*j.rng.NormFloat64())
}

// imperfect reports whether the scenario needs the iteration driver: more
// than one iteration, faults, stragglers or variable-length batches.
func imperfect(s scenario.Scenario) bool {
	return s.Iterations > 1 || len(s.Faults) > 0 || s.Straggler.CV > 0 || (s.Data.SeqDist != "" && s.Data.SeqDist != "fixed")
}

// Detector thresholds.
const (
	// NaiveThreshold: the naive detector flags an iteration slower than
	// this many times the median of the iterations before it.
	NaiveThreshold = 1.2
	// PredictorThreshold: the workload-aware detector flags an iteration
	// slower than this many times its predicted time. It sits above the
	// straggler noise of a healthy run (a few per cent at cv 0.1).
	PredictorThreshold = 1.1
)

// seqLengths draws the sequence lengths of a training step's batch: per
// replica and microbatch, from the step's own seeded source, so a redone
// step trains on the same batch.
func seqLengths(s scenario.Scenario, step, replicas int) [][]int {
	dist := s.Data.SeqDist
	if dist == "" || dist == "fixed" || s.Model.IsSynthetic() {
		return nil
	}
	m, err := s.Model.Resolve()
	if err != nil {
		return nil
	}
	rng := rand.New(rand.NewPCG(s.Seed^0x5eed1e46, uint64(step)))
	mean := float64(m.SeqLen)
	mu, sigma := scenario.StragglerSigma(s.Data.SeqCV) // the same lognormal of mean 1
	cp := s.Parallel.CP
	out := make([][]int, replicas)
	for r := range out {
		out[r] = make([]int, s.Parallel.Microbatches)
		for i := range out[r] {
			var l float64
			switch dist {
			case "uniform":
				l = 1 + rng.Float64()*(2*mean-1)
			case "lognormal":
				l = mean * math.Exp(mu+sigma*rng.NormFloat64())
			}
			// A whole number of tokens per context-parallel rank, at
			// most 8× the mean.
			n := int(math.Round(min(l, 8*mean) / float64(cp)))
			out[r][i] = max(1, n) * cp
		}
	}
	return out
}

// driver plays a training run iteration by iteration, with its faults and
// their recovery, and joins the iterations into one timeline.
type driver struct {
	s     scenario.Scenario
	out   *timeline.Timeline
	now   units.Time // the run's clock: where the next iteration starts
	index int        // iterations started so far
	// redoUntil is the last step a failure lost: steps up to it are redone.
	redoUntil int
	// open lists the states whose end is the end of the run.
	open []int
	fleet
	stopEvents
	lastCheckpoint
	detectors
	adaptive
}

// fleet is the run's GPUs and replicas as failures and recoveries leave
// them.
type fleet struct {
	live   []bool       // by data-parallel replica: still training
	spare  []units.Time // by GPU: when a spare replaced it (0: never)
	gpuOut []bool       // by GPU: stopped and not replaced
	slow   []slowFault  // the fail-slow events
	// ends[g] lists when GPU g left the run or was replaced: a fail-slow
	// state ends there.
	ends map[int][]units.Time
}

// stopEvents is the run's fail_stop and preempt events, by time, and
// which of them have been handled.
type stopEvents struct {
	stops   []scenario.Fault
	handled []bool
}

// lastCheckpoint is when the last checkpoint was written, and the step it
// saved (training resumes there).
type lastCheckpoint struct {
	lastCkpt units.Time
	ckptStep int
}

// detectors is what the slow-iteration detectors remember.
type detectors struct {
	predicted map[string]prediction
	observed  []units.Time // completed iterations' times, for the median
	// lastImbalance is the replica imbalance of the last iteration run.
	lastImbalance float64
}

// simulateIterations runs s.Iterations training steps, redoing those a
// failure loses.
func simulateIterations(s scenario.Scenario) (*timeline.Timeline, error) {
	d, err := newDriver(s)
	if err != nil {
		return nil, err
	}
	for step := 0; step < s.Iterations; {
		if d.index >= 4*scenario.MaxIterations {
			return nil, fmt.Errorf("faults: more than %d iterations to finish %d steps; the failures leave no progress", d.index, s.Iterations)
		}
		next, err := d.iteration(step)
		if err != nil {
			return nil, err
		}
		step = next
	}
	return d.finish()
}

func newDriver(s scenario.Scenario) (*driver, error) {
	n, dp := s.NumGPUs(), s.Parallel.DP
	d := &driver{s: s, redoUntil: -1,
		fleet:     fleet{live: make([]bool, dp), spare: make([]units.Time, n), gpuOut: make([]bool, n), ends: map[int][]units.Time{}},
		detectors: detectors{predicted: map[string]prediction{}}, adaptive: adaptive{cur: placement{s: s}, slowMult: map[int]float64{}}}
	for r := range d.live {
		d.live[r] = true
	}
	for _, f := range s.Faults {
		switch f.Kind {
		case scenario.FailSlow:
			d.slow = append(d.slow, slowFault{gpu: f.GPU, at: f.At, factor: f.Factor})
		case scenario.FailStop, scenario.Preempt:
			d.stops = append(d.stops, f)
		}
	}
	sort.SliceStable(d.stops, func(i, j int) bool { return d.stops[i].At < d.stops[j].At })
	d.handled = make([]bool, len(d.stops))
	return d, nil
}

// state is the iterState of the next iteration, on step step, on the
// current layout (its GPUs and servers numbered as the layout numbers
// them).
func (d *driver) state(step int, healthy bool) *iterState {
	cur := &d.cur
	ls := d.s
	ls.Parallel = cur.s.Parallel
	it := &iterState{index: d.index, step: step, offset: d.now, live: d.live, healthy: healthy,
		slow: d.slow, spare: d.spare, lengths: seqLengths(ls, step, ls.Parallel.DP), degraded: d.degradedLinks()}
	if d.resihp() {
		d.rebalance(it.lengths)
	}
	if cur.phys == nil {
		return it
	}
	// A regrouped layout has its own GPU numbers (resihp uses no spares and
	// refuses link_degrade faults: checkResiHP).
	it.slow, it.spare = nil, make([]units.Time, cur.s.NumGPUs())
	for _, f := range d.slow {
		if g := cur.local(f.gpu); g >= 0 {
			it.slow = append(it.slow, slowFault{gpu: g, at: f.at, factor: f.factor})
		}
	}
	return it
}

// degradedLinks is, by server, the bandwidth its network links keep under
// the link_degrade faults in force at d.now (nil: none).
func (d *driver) degradedLinks() map[int]float64 {
	var out map[int]float64
	for _, f := range d.s.Faults {
		if f.Kind == scenario.LinkDegrade && f.At <= d.now {
			if out == nil {
				out = map[int]float64{}
			}
			factor := f.Factor
			if old, ok := out[f.Node]; ok {
				factor = min(old, factor)
			}
			out[f.Node] = factor
		}
	}
	return out
}

// iteration runs one iteration of step and returns the step to run next:
// step+1, or an earlier one when a failure sends the job back to its
// checkpoint.
func (d *driver) iteration(step int) (int, error) {
	it := d.state(step, false)
	tl, err := d.run(it)
	if err != nil {
		return 0, err
	}
	if k, at := d.nextStop(tl.End); k >= 0 {
		return d.fail(step, tl, k, at)
	}
	rec := d.record(step, tl, false)
	pred, err := d.predict(step)
	if err != nil {
		return 0, err
	}
	obs := rec.Observed()
	rec.Predicted = pred.End
	rec.Median = median(d.observed)
	rec.NaiveFlag = rec.Median > 0 && float64(obs) > NaiveThreshold*float64(rec.Median)
	rec.SlowGPU, rec.SlowRatio = slowest(computeTimes(tl), pred.compute)
	rec.PredictorFlag = rec.SlowRatio > PredictorThreshold
	if !rec.PredictorFlag {
		rec.SlowGPU = -1
	}
	d.observed = append(d.observed, obs)
	d.out.Iterations = append(d.out.Iterations, rec)
	d.now += tl.End
	d.index++
	if d.resihp() && len(d.s.Faults) > 0 && rec.PredictorFlag && step+1 < d.s.Iterations {
		if err := d.repartition(computeTimes(tl), pred.compute); err != nil {
			return 0, err
		}
	}
	if d.s.Stops() && step+1 < d.s.Iterations && d.s.Recovery.Policy == scenario.PolicyCheckpointRestart &&
		d.now-d.lastCkpt >= d.s.Recovery.CheckpointInterval {
		d.checkpoint(step + 1)
	}
	return step + 1, nil
}

// run simulates one iteration alone, on its own clock from 0.
func (d *driver) run(it *iterState) (*timeline.Timeline, error) {
	jitter := jitterSource{seed: d.s.Seed}
	if !it.healthy {
		jitter.mu, jitter.sigma = scenario.StragglerSigma(d.s.Straggler.CV)
	}
	tr, tl, err := play(d.cur.s, it, jitter)
	if err != nil {
		return nil, err
	}
	if d.cur.phys != nil {
		if d.router == nil {
			t, _, err := trainingTopology(d.s) // the cluster: the links of d.out
			if err != nil {
				return nil, err
			}
			d.router = topo.NewRouter(t)
		}
		if err := d.cur.onCluster(tl, d.out, d.router); err != nil {
			return nil, err
		}
	}
	tl.Training.Tokens, tl.Training.ModelFLOPs, tl.Training.HardwareFLOPs = tr.batchWork()
	if d.out == nil {
		d.start(tl)
		d.protocol = tr.protocol
	}
	d.out.Events += tl.Events // predictions' too: the work budget counts every event fired
	d.lastImbalance = tr.imbalance()
	return tl, nil
}

// prediction is the workload-aware predictor's answer for one step.
type prediction struct {
	End     units.Time   // the iteration's time
	compute []units.Time // by GPU: its compute time
}

// predict is the workload-aware prediction of step's time and of every
// GPU's compute time: the same batch on the same live replicas, healthy
// and without jitter. Like ResiHP's detector it knows what the batch
// costs, so a batch of long sequences is not taken for a slow GPU.
func (d *driver) predict(step int) (prediction, error) {
	key := fmt.Sprint(d.cur.gen, d.live)
	// Each step's batch has its own lengths, and a skewed router its own
	// routing: the predictor knows both.
	if (d.s.Data.SeqDist != "fixed" && d.s.Data.SeqDist != "") || d.s.Model.MoE.Routing.Skewed() {
		key += fmt.Sprint(step)
	}
	if p, ok := d.predicted[key]; ok {
		return p, nil
	}
	last := d.lastImbalance
	tl, err := d.run(d.state(step, true))
	d.lastImbalance = last
	if err != nil {
		return prediction{}, err
	}
	p := prediction{End: tl.End, compute: computeTimes(tl)}
	d.predicted[key] = p
	return p, nil
}

// computeTimes is every GPU's compute time in tl (its spans, not the
// blocking communication).
func computeTimes(tl *timeline.Timeline) []units.Time {
	out := make([]units.Time, len(tl.GPUs))
	for _, sp := range tl.Spans {
		if !sp.Kind.IsCommunication() {
			out[sp.GPU] += sp.End - sp.Start
		}
	}
	return out
}

// slowest is the GPU whose observed compute is furthest over its
// predicted compute, and the ratio.
func slowest(observed, predicted []units.Time) (int, float64) {
	gpu, worst := -1, 0.0
	for g := range observed {
		if g < len(predicted) && predicted[g] > 0 {
			if r := float64(observed[g]) / float64(predicted[g]); r > worst {
				gpu, worst = g, r
			}
		}
	}
	return gpu, worst
}

// median is the median of ts (0 when empty), the lower middle for an even
// count.
func median(ts []units.Time) units.Time {
	if len(ts) == 0 {
		return 0
	}
	s := slices.Clone(ts)
	// sort.Slice, not slices.Sort: the wasm then carries no int64
	// instance of the generic sort (about 4 KB gzipped).
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)/2]
}
