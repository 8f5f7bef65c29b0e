package training

import (
	"fmt"
	"math"
	"sort"

	"paraplay/sim/fault"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Long is a long run: the scenario's training iteration simulated once
// (analytic fidelity), then weeks of failures and recoveries replayed
// against it by package fault.
type Long struct {
	// Scenario is the training scenario, as given.
	Scenario scenario.Scenario
	// Summary is the one simulated healthy iteration.
	Summary timeline.Summary
	// Config is what package fault replays; its Duration and Work are
	// those of the run.
	Config fault.Config
}

// NewLong simulates one healthy iteration of s and prepares a long run of
// the given wall-clock duration, or of the given number of iterations of
// useful work (one of them > 0). The re-planning policy simulates the
// training again on the surviving GPUs, once per distinct number of lost
// replicas.
func NewLong(s scenario.Scenario, duration units.Time, iterations int64) (*Long, error) {
	if s.Strategy != Name {
		return nil, fmt.Errorf("a long run needs a training scenario (model, parallel, cluster); this one is %s", s.Strategy)
	}
	if duration < 0 || iterations < 0 || duration == 0 && iterations == 0 {
		return nil, fmt.Errorf("a long run needs a duration or a number of iterations > 0")
	}
	healthy := oneIteration(s)
	if err := healthy.Validate(); err != nil {
		return nil, err
	}
	tl, err := SimulateMirrored(healthy) // read only through its summary and AllSpans
	if err != nil {
		return nil, err
	}
	sum := tl.Summarize()
	mix, err := fault.ParseMix(s.Failures.Causes)
	if err != nil {
		return nil, &scenario.FieldError{Field: "failures.causes", Msg: err.Error()}
	}
	job := jobOf(healthy, tl, sum)
	if s.Recovery.Policy == fault.Replan || s.Recovery.Policy == fault.ResiHP {
		job.Replan = newReplanner(healthy, sum).speed
	}
	r := s.Recovery
	interval := r.CheckpointInterval
	if interval == 0 { // the scenario's "after every iteration"
		interval = sum.Iteration
	}
	work := units.Time(0)
	if iterations > 0 {
		if float64(iterations)*float64(sum.Iteration) >= float64(units.MaxTime)/2 {
			return nil, fmt.Errorf("%d iterations of %v is too long a run", iterations, sum.Iteration)
		}
		work = units.Time(iterations) * sum.Iteration
	}
	cfg := fault.Config{Job: job, RatePerNodeDay: s.Failures.RatePerNodeDay, Mix: mix, Seed: s.FailureSeed(),
		Duration: duration, Work: work,
		Recovery: fault.Recovery{Policy: r.Policy, CheckpointInterval: interval, CheckpointCost: r.CheckpointCost,
			RestartCost: r.RestartCost, HeartbeatTimeout: r.HeartbeatTimeout, ReconfigureCost: r.ReconfigureCost,
			RepairTime: s.Failures.RepairTime}}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Long{Scenario: s, Summary: sum, Config: cfg}, nil
}

// Run replays the long run.
func (l *Long) Run() (fault.Report, error) { return fault.Run(l.Config) }

// oneIteration is s as one healthy iteration with analytic collectives:
// the failures of a long run come from its failure process, not from a
// faults list.
func oneIteration(s scenario.Scenario) scenario.Scenario {
	s.Fidelity = "analytic"
	s.Iterations = 1
	s.Faults = nil
	return s
}

// jobOf is what the recovery models need, read off the simulated iteration.
func jobOf(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) fault.Job {
	nodes := max(1, s.Cluster.Nodes)
	var fwd, all units.Time
	for sp := range tl.AllSpans() {
		if sp.Kind.IsCommunication() || sp.Kind == timeline.Optimizer {
			continue
		}
		all += sp.End - sp.Start
		if sp.Kind == timeline.Forward {
			fwd += sp.End - sp.Start
		}
	}
	share := 0.0
	if all > 0 {
		share = float64(fwd) / float64(all)
	}
	return fault.Job{Nodes: nodes, Iteration: sum.Iteration, Replicas: gcd(nodes, s.Parallel.DP),
		Stages: s.Parallel.PP, Microbatches: s.Parallel.Microbatches, Compute: sum.Compute, ForwardShare: share,
		Bubble: units.Round(sum.BubbleFraction * sum.Iteration.Seconds())}
}

// gcd is the number of node groups that each hold whole replicas: with
// fewer nodes than replicas a node holds several, and losing it drops them
// all.
func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// replanner re-plans a job on the nodes that survive (Oobleck, ResiHP):
// it tries layouts with the same tensor- and context-parallel degrees and
// a pipeline of the same, half or twice the depth, as many replicas as the
// surviving nodes hold (orphaned nodes of broken replicas regroup), and
// the microbatches per replica that keep the global batch nearest; the
// training simulator measures each, and the fastest that needs no more
// memory than the healthy plan wins.
type replanner struct {
	s      scenario.Scenario // the healthy scenario, one analytic iteration
	tokens float64           // its tokens per second
	peak   units.Bytes       // its largest peak memory on one GPU
}

func newReplanner(s scenario.Scenario, sum timeline.Summary) replanner {
	r := replanner{s: s, tokens: sum.TokensPerSecond}
	for _, g := range sum.GPUs {
		r.peak = max(r.peak, g.PeakMemory)
	}
	return r
}

// speed is the throughput, relative to healthy, when lost nodes are away
// (one per replica group hit); 0 when nothing can train. Like is compared
// with like: the best candidate layout on the survivors over the best of
// the same candidates on every node, never above 1. A candidate can beat
// the healthy plan itself (pp 1 where the scenario chose pp 2): measured
// against the plan, a lost node would then speed the job up, and the long
// run would report negative degraded time.
func (r replanner) speed(lost int) (float64, error) {
	if r.tokens <= 0 {
		return 0, fmt.Errorf("replan: the healthy iteration has no throughput")
	}
	nodes := max(1, r.s.Cluster.Nodes)
	best, err := r.best(nodes - lost)
	if err != nil || best == 0 {
		return 0, err
	}
	full, err := r.best(nodes)
	if err != nil {
		return 0, err
	}
	return min(1, best/max(full, r.tokens)), nil
}

// best is the most tokens per second any candidate layout reaches on
// nodes nodes without needing more memory than the healthy plan.
func (r replanner) best(nodes int) (float64, error) {
	best := 0.0
	for _, pp := range ppCandidates(r.s.Parallel.PP) {
		t, ok := r.layout(nodes, pp)
		if !ok {
			continue
		}
		tl, err := SimulateMirrored(t)
		if err != nil {
			return 0, fmt.Errorf("replan on %d GPUs: %w", t.NumGPUs(), err)
		}
		sum := tl.Summarize()
		if r.overflows(sum) {
			continue
		}
		best = max(best, sum.TokensPerSecond)
	}
	return best, nil
}

// overflows reports whether a layout runs out of memory where the
// healthy plan did not need as much.
func (r replanner) overflows(sum timeline.Summary) bool {
	for _, g := range sum.GPUs {
		if g.OOM && g.PeakMemory > r.peak {
			return true
		}
	}
	return false
}

// ppCandidates is the pipeline depths a re-plan tries.
func ppCandidates(pp int) []int {
	out := []int{pp}
	if pp%2 == 0 {
		out = append(out, pp/2)
	}
	return append(out, 2*pp)
}

// layout is the scenario on nodes surviving nodes with pp stages: as many
// replicas as fit in whole nodes, microbatches keeping the global batch.
func (r replanner) layout(nodes, pp int) (scenario.Scenario, bool) {
	t := r.s
	p := t.Parallel
	perNode := t.Cluster.GPUsPerNode
	if perNode == 0 || nodes < 1 {
		return t, false // one node holds the whole job: nothing survives its loss
	}
	unit := p.TP * pp * max(1, p.CP)
	dp := nodes * perNode / unit
	for dp >= 1 && (dp*unit%perNode != 0 || dp%max(1, p.EP) != 0) {
		dp--
	}
	if dp < 1 {
		return t, false
	}
	t.Name = ""
	t.Cluster.Nodes = dp * unit / perNode
	t.Parallel.DP, t.Parallel.PP = dp, pp
	target := float64(p.Microbatches*p.DP) / float64(dp)
	for _, m := range microbatchesNear(target, pp) {
		t.Parallel.Microbatches = m
		if t.Validate() == nil {
			return t, true
		}
	}
	return t, false
}

// microbatchesNear lists microbatch counts within p of target, nearest
// first (a schedule may accept only multiples of p): changing the global
// batch would change what a step learns, so the nearest one is taken.
func microbatchesNear(target float64, p int) []int {
	var out []int
	lo := max(1, int(math.Floor(target))-max(1, p))
	for m := lo; m <= int(math.Ceil(target))+max(1, p); m++ {
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return math.Abs(float64(out[i])-target) < math.Abs(float64(out[j])-target)
	})
	return out
}
