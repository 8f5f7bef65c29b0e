package plan

import (
	"cmp"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"paraplay/sim/cost"
	"paraplay/sim/hw"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// BatchSize is how many plans are simulated between two updates of the
// best time that prunes the rest. It is fixed, not the number of workers,
// so that the outcome is the same on any machine.
const BatchSize = 4

// Status is what the search did with a plan.
type Status string

// The statuses, in the order Result lists them.
const (
	// Best is the fastest simulated plan.
	Best Status = "best"
	// Simulated plans ran at analytic fidelity and lost to the best.
	Simulated Status = "simulated"
	// Unsimulated plans fit and could still have won, but the simulation
	// budget (Config.MaxSimulations) ran out before their turn; their
	// lower bound says how much better than the best they could be.
	Unsimulated Status = "unsimulated"
	// Bounded plans fit but were not simulated: their lower bound was
	// already no better than a simulated plan's iteration.
	Bounded Status = "bound"
	// Dominated plans are ZeRO-1 plans whose ZeRO-2 twin takes the same
	// time with less memory.
	Dominated Status = "dominated"
	// OutOfMemory plans need more memory than the GPU has.
	OutOfMemory Status = "oom"
)

// Plan is one point of the search space and what the search found out.
type Plan struct {
	// Scenario is the plan as a training scenario; it passes Validate.
	Scenario scenario.Scenario
	// Family names the dimensions the plan splits along, e.g. "tp·pp·dp".
	Family string
	// Status says what the search did with it.
	Status Status
	// Estimate holds the exact peak memory and the lower bounds on the
	// iteration (LowerBound is tightened only for plans that came close;
	// both are 0, unknown, for a plan over BoundMemory GPU memories).
	Estimate training.Estimate
	// Fits says the peak memory is within the GPU's HBM.
	Fits bool
	// NearOOM says the plan fits but its peak is above 90% of the GPU's
	// HBM (training.Estimate.NearOOM): the search keeps it and Why says
	// so, since the allocator's fragmentation may still run it out.
	NearOOM bool
	// Result is the analytic simulation's metrics; nil unless simulated.
	Result *Metrics
	// Detailed is the detailed simulation's metrics for the best few; nil
	// otherwise.
	Detailed *Metrics
	// Reason is why the plan lost, one word: oom, compute, bubble, tp,
	// tp-cross-node, cp, ep, pp, dp, zero, optimizer, dominated, budget;
	// empty for the best.
	Reason string
	// Why says it for people, with the figures.
	Why string

	index int   // enumeration order: the tie-breaker everywhere
	err   error // why the plan is invalid (then it is not returned)
	// twin, for a plan with tensor-parallel overlap, is the same plan
	// without: the same bytes on every GPU (only op times change), so a
	// twin out of memory settles the plan's screen (evaluate.go).
	// enumerate sets the twin's place in its list + 1, New the pointer.
	twin    *Plan
	twinIdx int
}

// Metrics are the figures of one simulation of a plan.
type Metrics struct {
	// Fidelity is "analytic" or "detailed".
	Fidelity string `json:"fidelity"`
	// Iteration is the simulated iteration time.
	Iteration units.Time `json:"iteration_ns"`
	// MFU is model FLOPs per second over the GPUs' peak.
	MFU float64 `json:"mfu"`
	// PeakMemory is the largest per-GPU peak the run recorded.
	PeakMemory units.Bytes `json:"peak_memory_bytes"`
	// OOM says some GPU's peak exceeded its HBM.
	OOM bool `json:"oom"`
	// NearOOM says some GPU's peak was above 90% of its HBM and within
	// it.
	NearOOM bool `json:"near_oom"`
	// Bubble is the pipeline bubble fraction (timeline.Summary's).
	Bubble float64 `json:"bubble_fraction"`
	// Compute is the mean compute time per GPU (recomputation included).
	Compute units.Time `json:"compute_ns"`
	// Exposed is the communication no compute hid, by kind (tp, cp, ep,
	// pp, dp, zero), in seconds per GPU.
	Exposed map[string]float64 `json:"exposed_comm_s,omitempty"`

	cost cost.Iteration // the run as package cost prices it (Plan.Cost)
	set  cost.Settings
}

// Iteration is the plan's simulated iteration time, or its lower bound
// when it was not simulated.
func (p *Plan) Iteration() units.Time {
	if p.Result != nil {
		return p.Result.Iteration
	}
	return p.Estimate.LowerBound
}

// Rent is what a second of the plan's run costs in dollars (its GPUs'
// dollars per GPU-hour summed, over 3,600) and the tokens one iteration
// trains (global batch × sequence length): the cost axis of a plot of
// iteration times. The rate is the simulated run's (cost.gpu_hour, else
// the GPU preset's assumed rate, hw.GPU.Price), or before a run, and in
// the browser, which prices no run, the preset's. Zero when unknown.
func (p *Plan) Rent() (usdPerSecond, tokens float64) {
	if p.Result != nil && p.Result.cost.Tokens > 0 {
		return p.Result.cost.Price / 3600, p.Result.cost.Tokens
	}
	s := p.Scenario
	gpu, err := hw.LookupGPU(s.Cluster.GPU)
	if err != nil {
		return 0, 0
	}
	m, err := s.Model.Resolve()
	if err != nil {
		return 0, 0
	}
	q := s.Parallel
	return gpu.Price * float64(s.NumGPUs()) / 3600, float64(q.DP*q.Microbatches*q.MicroBatchSize) * float64(m.SeqLen)
}

// Progress says how far a search is.
type Progress struct {
	// Phase is "screening", "simulating", "detailing" or "done".
	Phase string
	// Done and Total count units of work: a plan screened, a bound
	// tightened, a simulation. Total shrinks as plans are ruled out.
	Done, Total int
	// Plans is the number of plans enumerated; Rejected of them failed
	// validation (a tensor-parallel degree that does not divide the heads,
	// for example) and are not returned.
	Plans, Rejected int
	// OutOfMemory, Dominated, Bounded, Unsimulated and Simulated count the
	// plans with each status so far (Simulated includes the best);
	// Detailed counts detailed re-simulations.
	OutOfMemory, Dominated, Bounded, Unsimulated, Simulated, Detailed int
	// Best is the best iteration simulated so far (0 before the first).
	Best units.Time
}

// Fraction is Done / Total, 0..1.
func (p Progress) Fraction() float64 {
	if p.Total == 0 {
		return 1
	}
	return float64(p.Done) / float64(p.Total)
}

// Result is a finished search.
type Result struct {
	// Config is what was searched.
	Config Config
	// Plans lists every valid plan: the best first, then the other
	// simulated plans by iteration, the unsimulated and the bounded ones by
	// bound, the dominated ones, and the plans that do not fit by peak
	// memory.
	Plans []*Plan
	// Progress is the final count of each status.
	Progress Progress
	// Floor is the smallest lower bound of the Unsimulated plans when the
	// simulation budget stopped the search: no plan of the space runs
	// faster than min(best, Floor). Zero when every contender was
	// simulated or ruled out.
	Floor units.Time
}

// sortPlans orders plans as Result documents.
func sortPlans(plans []*Plan) {
	rank := map[Status]int{Best: 0, Simulated: 1, Unsimulated: 2, Bounded: 3, Dominated: 4, OutOfMemory: 5}
	order := func(a, b *Plan) int {
		if c := cmp.Compare(rank[a.Status], rank[b.Status]); c != 0 {
			return c
		}
		if a.Status == OutOfMemory {
			return cmp.Or(cmp.Compare(a.Estimate.PeakMemory, b.Estimate.PeakMemory), cmp.Compare(a.index, b.index))
		}
		return cmp.Or(cmp.Compare(a.Iteration(), b.Iteration()), cmp.Compare(a.index, b.index))
	}
	sort.SliceStable(plans, func(i, j int) bool { return order(plans[i], plans[j]) < 0 })
}

// Index is the plan's place in the enumeration: stable for a config, so a
// picture can name the plan by it.
func (p *Plan) Index() int { return p.index }

// Label is a one-line summary of the plan for people, e.g. "dp 16 × tp 4,
// 1f1b, b 1 × m 32, ZeRO-3, recompute selective", or with Llama 3's layer
// split and overlapped tensor-parallel communication "dp 32 × tp 8 × pp
// 16, interleaved v4, first and last stage −1 layer, TP overlap, …".
func (p *Plan) Label() string {
	q := p.Scenario.Parallel
	var dims []string
	for _, d := range []struct {
		name string
		v    int
	}{{"dp", q.DP}, {"tp", q.TP}, {"pp", q.PP}, {"cp", q.CP}, {"ep", q.EP}} {
		if d.v > 1 {
			dims = append(dims, fmt.Sprintf("%s %d", d.name, d.v))
		}
	}
	if q.ETP > 0 && q.ETP != q.TP {
		dims = append(dims, fmt.Sprintf("etp %d", q.ETP))
	}
	if len(dims) == 0 {
		dims = []string{"one GPU"}
	}
	if l := q.Mesh.Layout; l != "" { // the torus axes a TPU mesh fills (the browser's label; the host's is meshLabel)
		dims = append(dims, "on "+l)
	}
	if l := meshLabel(q.Mesh); l != "" { // a TPU slice: the mesh and the torus axes it fills
		dims = []string{l}
	}
	sched := q.Schedule
	if sched == "interleaved" {
		sched += fmt.Sprintf(" v%d", q.VirtualStages)
	}
	if q.FirstLastFewer > 0 {
		sched += fmt.Sprintf(", first and last stage −%d layer", q.FirstLastFewer)
	}
	if q.TPCommOverlap {
		sched += ", TP overlap"
	}
	rest := ""
	if perLayerSearch && q.ZeROLayers > 0 { // only the host's planner searches it (perlayer.go)
		rest = " on " + strconv.Itoa(q.ZeROLayers) + " layers, ZeRO-2 on the rest"
	}
	return fmt.Sprintf("%s, %s, b %d × m %d, ZeRO-%d%s, recompute %s", strings.Join(dims, " × "), sched,
		q.MicroBatchSize, q.Microbatches, q.ZeRO, rest, q.Recompute)
}
