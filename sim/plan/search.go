package plan

import (
	"cmp"
	"errors"
	"fmt"
	"sort"

	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// Search is a plan search that runs in slices: call Step until it reports
// done, reading Progress between calls, then Result. It is not safe for
// concurrent use; Run drives the same search on several cores.
type Search struct {
	cfg   Config
	all   []*Plan // every enumerated plan, by index
	est   *training.Estimator
	phase string

	screened int     // plans screened so far (in index order)
	queue    []*Plan // plans to consider for simulation, by (Work, index)
	qpos     int     // next plan of queue
	batch    []*Plan // the batch being simulated
	bpos     int     // next plan of batch
	best     *Plan   // the best simulated plan so far
	started  int     // plans sent to simulation (for Config.MaxSimulations)
	floor    units.Time
	detail   []*Plan // the plans to re-simulate in detail
	dpos     int

	done int // units of work done
}

// Phases of a search.
const (
	phaseScreening  = "screening"
	phaseSimulating = "simulating"
	phaseDetailing  = "detailing"
	phaseDone       = "done"
)

// New prepares the search of cfg's plans: it validates cfg and enumerates
// the plans (cheap); Step or Run does the work.
func New(cfg Config) (*Search, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m, err := cfg.Model.Resolve()
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	s := &Search{cfg: cfg, est: training.NewEstimator(), phase: phaseScreening}
	// The plans with a twin (tensor-parallel overlap) go last, so that
	// every twin is screened first, in slices and in parallel alike.
	plans := enumerate(cfg, m)
	ptr := make([]*Plan, len(plans))
	for pass := 0; pass < 2; pass++ {
		for i := range plans {
			if p := &plans[i]; (p.twinIdx > 0) == (pass == 1) {
				p.index, ptr[i] = len(s.all), p
				if p.twinIdx > 0 {
					p.twin = ptr[p.twinIdx-1]
				}
				s.all = append(s.all, p)
			}
		}
	}
	if len(s.all) == 0 {
		return nil, &scenario.FieldError{Field: "global_batch", Msg: fmt.Sprintf("is %d: no plan splits it over %d GPUs (dp must divide it)", cfg.GlobalBatch, cfg.GPUs())}
	}
	return s, nil
}

// Step does up to budget units of work (a plan screened, a batch formed,
// one simulation) and reports whether the search is done.
func (s *Search) Step(budget int) bool {
	for ; budget > 0 && s.phase != phaseDone; budget-- {
		s.step()
	}
	return s.phase == phaseDone
}

// step does one unit of work.
func (s *Search) step() {
	s.done++
	switch s.phase {
	case phaseScreening:
		screen(s.all[s.screened], s.est)
		s.screened++
		if s.screened == len(s.all) {
			s.startSimulating()
		}
	case phaseSimulating:
		if s.bpos == len(s.batch) {
			s.closeBatch()
			if s.batch = s.nextBatch(); len(s.batch) == 0 {
				s.startDetailing()
			}
			s.bpos = 0
			return
		}
		simulate(s.batch[s.bpos], taskgraph.Analytic)
		s.bpos++
	case phaseDetailing:
		if s.dpos == len(s.detail) {
			s.finish()
			return
		}
		simulate(s.detail[s.dpos], taskgraph.Detailed)
		s.dpos++
	}
}

// startSimulating queues the plans that fit and are not dominated, by
// their work bound; ties keep the enumeration order.
//
// A capped search (Config.MaxSimulations) spends its few simulations on the
// plans with the best tight bound instead: it works out every queued plan's
// training.Estimator.Estimate first (milliseconds each) and sorts by that.
func (s *Search) startSimulating() {
	s.phase = phaseSimulating
	for _, p := range s.all {
		if p.err != nil || p.Status != "" {
			continue
		}
		if s.capped() {
			full, err := s.est.Estimate(p.Scenario)
			if err != nil {
				p.err = err
				continue
			}
			p.Estimate = full
		}
		s.queue = append(s.queue, p)
	}
	q := s.queue
	sort.SliceStable(q, func(i, j int) bool {
		return cmp.Or(cmp.Compare(s.order(q[i]), s.order(q[j])), cmp.Compare(q[i].index, q[j].index)) < 0
	})
}

// capped reports whether the search has a simulation budget.
func (s *Search) capped() bool { return s.cfg.MaxSimulations > 0 }

// order is the bound the queue is sorted by: the tight one in a capped
// search, else the work bound.
func (s *Search) order(p *Plan) units.Time {
	if s.capped() {
		return p.Estimate.LowerBound
	}
	return p.Estimate.Work
}

// nextBatch forms the next batch of plans to simulate, up to BatchSize,
// from the queue. A plan whose work bound is no better than the best so far
// ends the search, with every plan after it: the queue is sorted by that
// bound, and no run beats its bound. A plan that passes gets the tighter
// bound of the schedule walk, and is skipped if that one fails the test.
func (s *Search) nextBatch() []*Plan {
	var batch []*Plan
	for len(batch) < BatchSize && s.qpos < len(s.queue) {
		if s.cfg.MaxSimulations > 0 && s.started+len(batch) >= s.cfg.MaxSimulations {
			if len(batch) == 0 {
				s.stopAtBudget() // the last batch has run: the best is known
			}
			break
		}
		p := s.queue[s.qpos]
		s.qpos++
		if s.beaten(s.order(p)) {
			for _, q := range s.queue[s.qpos-1:] {
				q.Status = Bounded
			}
			s.qpos = len(s.queue)
			break
		}
		if !s.cfg.Exhaustive && s.best != nil && !s.capped() {
			full, err := s.est.Estimate(p.Scenario)
			if err != nil {
				p.err = err
				continue
			}
			p.Estimate = full
			if s.beaten(full.LowerBound) {
				p.Status = Bounded
				continue
			}
		}
		batch = append(batch, p)
	}
	s.started += len(batch)
	return batch
}

// stopAtBudget ends the simulations when Config.MaxSimulations is spent.
// Each plan still queued has its tight bound (startSimulating): a plan
// whose bound is no better than the best so far is Bounded, as in an
// uncapped search; the rest are Unsimulated, and the smallest of their
// bounds is the search's floor.
func (s *Search) stopAtBudget() {
	for _, p := range s.queue[s.qpos:] {
		full := p.Estimate // tightened when the queue was formed
		if s.beaten(full.LowerBound) {
			p.Status = Bounded
			continue
		}
		p.Status = Unsimulated
		if s.floor == 0 || full.LowerBound < s.floor {
			s.floor = full.LowerBound
		}
	}
	s.qpos = len(s.queue)
}

// beaten reports whether a plan whose iteration is at least bound cannot
// beat the best so far (never, in an exhaustive search).
func (s *Search) beaten(bound units.Time) bool {
	return !s.cfg.Exhaustive && s.best != nil && bound >= s.best.Result.Iteration
}

// closeBatch marks the batch's plans simulated and updates the best.
func (s *Search) closeBatch() {
	for _, p := range s.batch {
		if p.err != nil || p.Result == nil {
			continue
		}
		p.Status = Simulated
		if p.Result.OOM {
			// The estimate and the run disagree; believe the run.
			p.Status, p.Fits, p.NearOOM = OutOfMemory, false, false
			continue
		}
		if s.best == nil || p.Result.Iteration < s.best.Result.Iteration ||
			(p.Result.Iteration == s.best.Result.Iteration && p.index < s.best.index) {
			s.best = p
		}
	}
}

// startDetailing picks the best Config.Detailed simulated plans.
func (s *Search) startDetailing() {
	s.phase = phaseDetailing
	var sim []*Plan
	for _, p := range s.all {
		if p.Status == Simulated {
			sim = append(sim, p)
		}
	}
	sortPlans(sim)
	s.detail = sim[:min(len(sim), s.cfg.Detailed)]
}

// finish marks the best, explains every loss and ends the search.
func (s *Search) finish() {
	if s.best != nil {
		s.best.Status = Best
	}
	for _, p := range s.all {
		explain(p, s.best)
	}
	s.phase = phaseDone
}

// Progress says how far the search is.
func (s *Search) Progress() Progress {
	pr := Progress{Phase: s.phase, Done: s.done, Plans: len(s.all)}
	for _, p := range s.all {
		switch {
		case p.err != nil:
			pr.Rejected++
		case p.Status == OutOfMemory:
			pr.OutOfMemory++
		case p.Status == Dominated:
			pr.Dominated++
		case p.Status == Bounded:
			pr.Bounded++
		case p.Status == Unsimulated:
			pr.Unsimulated++
		case p.Status == Simulated || p.Status == Best:
			pr.Simulated++
		}
		if p.Detailed != nil {
			pr.Detailed++
		}
	}
	if s.best != nil {
		pr.Best = s.best.Result.Iteration
	}
	// What is left: plans to screen, plans still queued (each at most a
	// bound and a simulation), the batch's remaining runs, details. The
	// queue is empty until screening ends, so Total grows then, and
	// shrinks as the bound rules plans out.
	left := len(s.all) - s.screened + 2*(len(s.queue)-s.qpos) + len(s.batch) - s.bpos
	if s.phase != phaseDone {
		left += s.cfg.Detailed - s.dpos + 1
	}
	pr.Total = s.done + left
	return pr
}

// Result returns the finished search's plans; it is an error to call it
// before Step has reported done.
func (s *Search) Result() (*Result, error) {
	if s.phase != phaseDone {
		return nil, errors.New("plan: the search is not done; call Step until it returns true")
	}
	r := &Result{Config: s.cfg, Progress: s.Progress(), Floor: s.floor}
	for _, p := range s.all {
		if p.err == nil {
			r.Plans = append(r.Plans, p)
		}
	}
	sortPlans(r.Plans)
	return r, nil
}

// Plans lists the plans screened so far that are valid, in enumeration
// order, with what the search knows of each: for a live picture of a
// search in progress. The plans are the search's own; do not change them.
func (s *Search) Plans() []*Plan {
	out := make([]*Plan, 0, s.screened)
	for _, p := range s.all[:s.screened] {
		if p.err == nil {
			out = append(out, p)
		}
	}
	return out
}

// Done reports whether the search has finished.
func (s *Search) Done() bool { return s.phase == phaseDone }
