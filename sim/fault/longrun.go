package fault

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"paraplay/sim/units"
)

// Recovery is a policy and what each of its steps costs.
type Recovery struct {
	// Policy is one of Policies.
	Policy string
	// CheckpointInterval is τ, the useful work between checkpoints (> 0).
	CheckpointInterval units.Time
	// CheckpointCost is C, the time training stops to write a checkpoint.
	CheckpointCost units.Time
	// RestartCost is R, the time to reload a checkpoint and re-initialise.
	RestartCost units.Time
	// HeartbeatTimeout is D, from a failure to its detection.
	HeartbeatTimeout units.Time
	// ReconfigureCost is K, the time to rebuild groups when a node leaves
	// or rejoins (all policies but checkpoint-restart).
	ReconfigureCost units.Time
	// RepairTime is how long a lost node stays away.
	RepairTime units.Time
}

// Config is one long run.
type Config struct {
	// Job is the training job, from the training simulator.
	Job Job
	// Recovery is the policy and its costs.
	Recovery Recovery
	// RatePerNodeDay is λ, failures per node per day (0 = none).
	RatePerNodeDay float64
	// Mix is the cause mix of the failures.
	Mix Mix
	// Seed drives the failure process.
	Seed uint64
	// Duration is the wall-clock length of the run; 0 = until Work is done.
	Duration units.Time
	// Work is the useful work to finish (iterations × T); 0 = until
	// Duration ends. At least one of them must be set.
	Work units.Time
}

// Validate checks the configuration.
func (c Config) Validate() error {
	errs := []error{c.Job.Validate()}
	r := c.Recovery
	if r.CheckpointInterval <= 0 {
		errs = append(errs, fmt.Errorf("checkpoint interval is %v; want > 0", r.CheckpointInterval))
	}
	for _, d := range []struct {
		name string
		v    units.Time
	}{{"checkpoint cost", r.CheckpointCost}, {"restart cost", r.RestartCost}, {"heartbeat timeout", r.HeartbeatTimeout},
		{"reconfigure cost", r.ReconfigureCost}, {"repair time", r.RepairTime}} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%s is %v; want ≥ 0", d.name, d.v))
		}
	}
	if !(c.RatePerNodeDay >= 0 && c.RatePerNodeDay < math.Inf(1)) {
		errs = append(errs, fmt.Errorf("failure rate is %v per node-day; want ≥ 0", c.RatePerNodeDay))
	}
	if len(c.Mix) == 0 {
		errs = append(errs, fmt.Errorf("the cause mix is empty"))
	}
	if c.Duration <= 0 && c.Work <= 0 || c.Duration < 0 || c.Work < 0 {
		errs = append(errs, fmt.Errorf("duration %v and work %v: want one of them > 0 and neither < 0", c.Duration, c.Work))
	}
	return errors.Join(errs...)
}

// phase is a stretch of time when the job does not train.
type phase struct {
	kind  *units.Time // the Lost counter it is charged to
	name  string      // its Phase kind
	left  units.Time
	ckpt  bool   // a checkpoint write: when it ends, the checkpoint exists
	cause string // the failure this recovery step answers, or ""
}

// replay is the state of one long run.
type replay struct {
	cfg      Config
	m        model
	rep      Report
	t        units.Time
	progress units.Time // useful work done, in healthy time
	ckpt     units.Time // progress at the last complete checkpoint
	phases   []phase
	down     map[int]units.Time // node → time it returns
	downBy   map[int]string     // node → the cause that took it away
	hit      map[int]int        // replica → its nodes down
	causes   map[string]int
	blame    map[string]units.Time // time lost, by failure cause
}

// Run replays a long run: failures drawn from the process, each handled
// by the policy, every second of wall time charged to useful work or to a
// cause of loss. It is deterministic in the configuration.
func Run(cfg Config) (Report, error) {
	if err := cfg.Validate(); err != nil {
		return Report{}, err
	}
	m, err := newModel(cfg.Recovery.Policy, cfg.Job)
	if err != nil {
		return Report{}, err
	}
	proc := NewProcess(cfg.Job.Nodes, cfg.RatePerNodeDay, cfg.Mix, cfg.Seed)
	return replayWith(cfg, m, proc.Next, proc.MTBF())
}

// Replay is Run with the given failures instead of the random process (in
// order of time; the rate and seed of cfg only set the report's MTBF): a
// test or a what-if replays exactly the failures it wants.
func Replay(cfg Config, failures []Failure) (Report, error) {
	if err := cfg.Validate(); err != nil {
		return Report{}, err
	}
	m, err := newModel(cfg.Recovery.Policy, cfg.Job)
	if err != nil {
		return Report{}, err
	}
	for i, f := range failures {
		if f.At < 0 || i > 0 && f.At < failures[i-1].At || f.Node < 0 || f.Node >= cfg.Job.Nodes {
			return Report{}, fmt.Errorf("failure %d (%+v): want times in order and a node in 0..%d", i, f, cfg.Job.Nodes-1)
		}
		if _, ok := CauseByName(f.Cause); !ok {
			return Report{}, fmt.Errorf("failure %d: unknown cause %q; known: %s", i, f.Cause, causeNames())
		}
	}
	i := 0
	next := func() Failure {
		if i == len(failures) {
			return Failure{At: units.MaxTime}
		}
		i++
		return failures[i-1]
	}
	return replayWith(cfg, m, next, NewProcess(cfg.Job.Nodes, cfg.RatePerNodeDay, cfg.Mix, 0).MTBF())
}

func replayWith(cfg Config, m model, next func() Failure, mtbf units.Time) (Report, error) {
	r := &replay{cfg: cfg, m: m, down: map[int]units.Time{}, downBy: map[int]string{}, hit: map[int]int{}, causes: map[string]int{}, blame: map[string]units.Time{}}
	if err := r.loop(next); err != nil {
		return Report{}, err
	}
	r.finish(mtbf)
	return r.rep, nil
}

func (r *replay) done() bool {
	return r.cfg.Duration > 0 && r.t >= r.cfg.Duration || r.cfg.Work > 0 && r.progress >= r.cfg.Work
}

func (r *replay) horizon() units.Time {
	if r.cfg.Duration > 0 {
		return r.cfg.Duration
	}
	return units.MaxTime
}

func (r *replay) loop(draw func() Failure) error {
	next := draw()
	for !r.done() {
		until := min(next.At, r.nextRepair(), r.horizon())
		var err error
		if len(r.phases) > 0 {
			r.pause(until)
		} else {
			err = r.train(until)
		}
		if err != nil {
			return err
		}
		r.repairs()
		if r.t == next.At {
			r.fail(next)
			next = draw()
		}
	}
	return nil
}

// pause spends time in the current phase, up to until.
func (r *replay) pause(until units.Time) {
	ph := &r.phases[0]
	d := min(ph.left, until-r.t)
	*ph.kind += d
	r.blame[ph.cause] += d
	ph.left -= d
	r.record(Phase{Kind: ph.name, Start: r.t, End: r.t + d, Cause: ph.cause})
	r.t += d
	if ph.left == 0 {
		if ph.ckpt {
			r.ckpt = r.progress
			r.rep.Checkpoints++
		}
		r.phases = r.phases[1:]
	}
}

// train runs at the current speed until until, the next checkpoint or the
// end of the work, whichever comes first.
func (r *replay) train(until units.Time) error {
	s, err := r.m.speed(len(r.hit))
	if err != nil {
		return err
	}
	need := r.cfg.Recovery.CheckpointInterval - (r.progress - r.ckpt)
	if r.cfg.Work > 0 {
		need = min(need, r.cfg.Work-r.progress)
	}
	if s > 0 {
		// Compare in floating point first: need/s overflows Time when s is tiny.
		if d := math.Ceil(float64(need) / s); d < float64(until-r.t) {
			until = r.t + units.Time(d)
		}
	}
	d := until - r.t
	gained := min(need, units.Time(math.Round(float64(d)*s)))
	r.progress += gained
	r.rep.Lost.Degraded += d - gained
	r.blameDegraded(d - gained)
	r.record(Phase{Kind: PhaseTrain, Start: r.t, End: until, Useful: gained})
	r.t = until
	if r.progress-r.ckpt >= r.cfg.Recovery.CheckpointInterval {
		r.phases = append(r.phases, phase{kind: &r.rep.Lost.Checkpoint, name: PhaseCheckpoint, left: r.cfg.Recovery.CheckpointCost, ckpt: true})
		if r.cfg.Recovery.CheckpointCost == 0 {
			r.pause(r.t)
		}
	}
	return nil
}

func (r *replay) nextRepair() units.Time {
	next := units.MaxTime
	for _, at := range r.down {
		next = min(next, at)
	}
	return next
}

// repairs brings back the nodes whose repair is over.
func (r *replay) repairs() {
	nodes := make([]int, 0, len(r.down))
	for n, at := range r.down {
		if at <= r.t {
			nodes = append(nodes, n)
		}
	}
	for _, n := range nodes { // order does not matter: each only decrements
		delete(r.down, n)
		delete(r.downBy, n)
		rep := r.replica(n)
		if r.hit[rep]--; r.hit[rep] == 0 {
			delete(r.hit, rep)
		}
		r.phases = append(r.phases, phase{kind: &r.rep.Lost.Reconfigure, name: PhaseReconfigure, left: r.cfg.Recovery.ReconfigureCost})
	}
}

func (r *replay) replica(node int) int {
	return node / (r.cfg.Job.Nodes / r.cfg.Job.Replicas)
}

// fail handles one failure.
func (r *replay) fail(f Failure) {
	if _, away := r.down[f.Node]; away {
		return // a node under repair is not in the job: it cannot fail it
	}
	r.rep.Failures++
	r.causes[f.Cause]++
	lostBefore := r.rep.Lost.Work
	defer func() {
		lost := r.rep.Lost.Work - lostBefore
		r.rep.Hits = append(r.rep.Hits, Hit{f, lost})
		r.rollBack(lost)
	}()
	rc := r.cfg.Recovery
	// A failure interrupts whatever pause was under way: an unfinished
	// checkpoint is lost, and recovery starts over from this failure.
	r.phases = r.phases[:0]
	detect := phase{kind: &r.rep.Lost.Detection, name: PhaseDetection, left: rc.HeartbeatTimeout, cause: f.Cause}
	if r.m.spares || !f.NodeLost() {
		// Back to the last checkpoint, on a spare node if one was lost.
		r.rep.Lost.Work += r.progress - r.ckpt
		r.blame[f.Cause] += r.progress - r.ckpt
		r.progress = r.ckpt
		r.phases = append(r.phases, detect, phase{kind: &r.rep.Lost.Restart, name: PhaseRestart, left: rc.RestartCost, cause: f.Cause})
		return
	}
	r.down[f.Node] = r.t + rc.RepairTime
	r.downBy[f.Node] = f.Cause
	r.hit[r.replica(f.Node)]++
	if !r.m.keepsInflight {
		lost := r.progress % r.cfg.Job.Iteration
		r.progress -= lost
		r.rep.Lost.Work += lost
		r.blame[f.Cause] += lost
	}
	r.phases = append(r.phases, detect)
	if r.m.reconfigure {
		r.phases = append(r.phases, phase{kind: &r.rep.Lost.Reconfigure, name: PhaseReconfigure, left: rc.ReconfigureCost, cause: f.Cause})
	}
}

func (r *replay) finish(mtbf units.Time) {
	rep := &r.rep
	rc := r.cfg.Recovery
	rep.Policy = rc.Policy
	rep.Wall = r.t
	rep.Useful = r.progress
	rep.Iterations = int64(r.progress / r.cfg.Job.Iteration)
	if r.t > 0 {
		rep.Goodput = float64(r.progress) / float64(r.t)
		rep.EffectiveTraining = float64(r.progress+rep.Lost.Degraded) / float64(r.t)
		rep.FailuresPerHour = float64(rep.Failures) / (r.t.Seconds() / 3600)
	}
	for _, s := range r.cfg.Mix {
		rep.ByCause = append(rep.ByCause, CauseCount{s.Cause, r.causes[s.Cause], r.blame[s.Cause]})
	}
	rep.MTBF = mtbf
	rep.CheckpointInterval = rc.CheckpointInterval
	if mtbf < units.MaxTime {
		rep.YoungInterval = YoungInterval(rc.CheckpointCost, mtbf)
		rep.DalyInterval = DalyInterval(rc.CheckpointCost, mtbf)
	}
}

// record appends p to the phases, merging it into the last one when it
// continues it (a pause or a stretch of training cut by a repair).
func (r *replay) record(p Phase) {
	if p.End <= p.Start && p.Useful == 0 {
		return
	}
	ps := r.rep.Phases
	if n := len(ps); n > 0 {
		last := &ps[n-1]
		if last.Kind == p.Kind && last.Cause == p.Cause && last.End == p.Start && p.Kind != PhaseCheckpoint {
			last.End, last.Useful = p.End, last.Useful+p.Useful
			return
		}
	}
	r.rep.Phases = append(ps, p)
}

// rollBack turns the last lost units of useful work into lost phases,
// walking back over the train phases: the tail of a train phase that holds
// only part of it is split off, its wall time in proportion to its work.
func (r *replay) rollBack(lost units.Time) {
	ps := r.rep.Phases
	for i := len(ps) - 1; i >= 0 && lost > 0; i-- {
		p := &ps[i]
		if p.Kind != PhaseTrain || p.Useful == 0 {
			continue
		}
		if p.Useful <= lost {
			p.Kind = PhaseLost
			lost -= p.Useful
			continue
		}
		wall := units.Time(math.Round(float64(p.End-p.Start) * float64(lost) / float64(p.Useful)))
		tail := Phase{Kind: PhaseLost, Start: p.End - wall, End: p.End, Useful: lost}
		p.End, p.Useful = tail.Start, p.Useful-lost
		ps = slices.Insert(ps, i+1, tail)
		lost = 0
	}
	r.rep.Phases = ps
}

// blameDegraded splits degraded time evenly among the causes of the nodes
// that are away (the remainder to the lowest node, for determinism); with
// none away it is a policy's steady overhead and blames no failure.
func (r *replay) blameDegraded(d units.Time) {
	if d <= 0 || len(r.downBy) == 0 {
		return
	}
	nodes := make([]int, 0, len(r.downBy))
	for n := range r.downBy {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	share := d / units.Time(len(nodes))
	for _, n := range nodes {
		r.blame[r.downBy[n]] += share
	}
	r.blame[r.downBy[nodes[0]]] += d - share*units.Time(len(nodes))
}
