package swarm

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"

	"paraplay/sim/engine"
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// task is one stage's forward or backward of one microbatch.
type task struct {
	mb, gen, stage int
	back           bool
}

// peer is one peer of the swarm as the run leaves it.
type peer struct {
	speed   float64
	stage   int  // the stage it serves (its new one once it has moved)
	alive   bool // false once it failed
	leaving bool // draining before a move to target
	moving  bool // downloading target's parameters
	target  int
	busy    bool
	run     task
	runFrom units.Time
	queue   []task     // waiting, backwards served first
	until   units.Time // when the work routed to it should be done (routing's estimate)
	holds   int        // microbatches whose forward it ran and whose backward it has not
}

// sim is one run.
type sim struct {
	s       *scenario.Scenario
	y       Settings
	e       engine.Engine
	peers   []peer
	inbox   [][]task // by stage: forwards no peer could take yet
	holder  []int    // by microbatch·stages + stage: the peer holding its activations (−1)
	skip    []bool   // by microbatch·stages + stage: its path skips the stage
	planned []int    // by stage: paths planned through it
	gen     []int    // by microbatch: how many times it was sent again
	sent    int      // microbatches sent so far
	done    []units.Time
	comm    units.Time // α + activation/β, a message between two peers
	tl      *timeline.Timeline
	rec     *Record
	moveEnd units.Time
	cap     int  // microbatches in flight: the trainers send one as one finishes
	armed   bool // a rebalance is scheduled
}

// Simulate plays a SWARM run (see the package doc) and returns its
// timeline, which passes timeline.Validate.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	x := newSim(&s)
	x.e.Run()
	x.tl.Events = x.e.Fired()
	if len(x.done) < x.y.Microbatches {
		return nil, errors.New("swarm: microbatches left unfinished: a stage has no live peer left (set swarm.rebalance so that a peer moves to it)")
	}
	return x.finish()
}

func newSim(s *scenario.Scenario) *sim {
	y := SettingsOf(s)
	n := s.NumGPUs()
	x := &sim{s: s, y: y, inbox: make([][]task, y.Stages), holder: make([]int, y.Microbatches*y.Stages), skip: make([]bool, y.Microbatches*y.Stages), planned: make([]int, y.Stages), gen: make([]int, y.Microbatches),
		comm: s.Link.Latency + s.Link.Bandwidth.TransferTime(y.Activation), peers: make([]peer, n), cap: min(y.Microbatches, 4*n)}
	x.tl = &timeline.Timeline{Title: s.Title(), Fidelity: "analytic", GPUs: make([]timeline.GPU, n)}
	for j := range x.peers {
		// Peers are dealt to stages in turn: peer j serves stage j mod S.
		x.peers[j] = peer{speed: 1, stage: j % y.Stages, alive: true}
		if len(s.Sync.Speeds) == n {
			x.peers[j].speed = s.Sync.Speeds[j]
		}
		x.tl.GPUs[j] = timeline.GPU{ID: j, Name: "peer " + strconv.Itoa(j), Node: j}
	}
	x.rec = newRecord(x)
	for i := range x.holder {
		x.holder[i] = -1
	}
	for _, f := range s.Faults {
		x.e.At(f.At, func() { x.fault(f) })
	}
	x.arm(1)
	for x.sent < x.cap {
		x.send()
	}
	return x
}

// send starts the next microbatch.
func (x *sim) send() {
	x.start(x.sent)
	x.sent++
}

// start sends microbatch mb to the first stage: its trainer holds the
// data, so there is no message. With swarm.skip = k its path first skips
// k of the other stages (SkipPipe): each time the stage the paths so far
// visit most, so that every stage past the first computes the same share
// f = 1 − k/(S−1) of the microbatches (to one), as SkipPipe's scheduler
// caps each stage's microbatches; among those, the one whose first free
// peer is latest by routing's estimate (a stage with no peer first), so
// that paths avoid busy stages; ties in turn from stage 1 + mb mod (S−1).
// Stage 0, which holds the embedding and the data, is never skipped; the
// stages keep their order (no swaps).
func (x *sim) start(mb int) {
	n := x.y.Stages
	row := x.skip[mb*n : mb*n+n]
	clear(row)
	for range x.y.Skip {
		best, at := -1, units.Time(0)
		for i := range n - 1 {
			s := 1 + (mb+i)%(n-1)
			if f := x.free(s); !row[s] && (best < 0 || x.planned[s] > x.planned[best] || x.planned[s] == x.planned[best] && f > at) {
				best, at = s, f
			}
		}
		row[best] = true
	}
	for s := 1; s < n; s++ {
		if !row[s] {
			x.planned[s]++
		}
	}
	x.route(task{mb: mb, gen: x.gen[mb]}, 0)
}

// free is when the first peer of stage s is free, by routing's estimate
// (the largest time when it has none).
func (x *sim) free(s int) units.Time {
	at := units.Time(math.MaxInt64)
	for _, p := range x.peers {
		if p.alive && !p.leaving && !p.moving && p.stage == s {
			at = min(at, p.until)
		}
	}
	return at
}

// step is the stage after s (dir = 1) or before it (dir = −1) on
// microbatch mb's path, −1 past its end.
func (x *sim) step(mb, s, dir int) int {
	for s += dir; s >= 0 && s < x.y.Stages; s += dir {
		if !x.skip[mb*x.y.Stages+s] {
			return s
		}
	}
	return -1
}

// dur is t's compute on peer p: compute.forward or compute.backward over
// its speed.
func (x *sim) dur(p *peer, t task) units.Time {
	d := x.s.Compute.Forward
	if t.back {
		d = x.s.Compute.Backward
	}
	return max(1, units.Round(d.Seconds()/p.speed))
}

// route sends forward t to the peer of its stage that would finish it
// and its backward first (each peer's work routed so far, in order),
// arriving after delay; with none, t waits in the stage's inbox.
func (x *sim) route(t task, delay units.Time) {
	best, bestEnd := -1, units.Time(0)
	for j := range x.peers {
		p := &x.peers[j]
		if !p.alive || p.leaving || p.moving || p.stage != t.stage {
			continue
		}
		// It will also run the microbatch's backward: count both.
		end := max(x.e.Now()+delay, p.until) + x.dur(p, t) + x.dur(p, task{back: true})
		if best < 0 || end < bestEnd {
			best, bestEnd = j, end
		}
	}
	if best < 0 {
		x.inbox[t.stage] = append(x.inbox[t.stage], t)
		return
	}
	x.peers[best].until = bestEnd
	x.arriveAfter(delay, best, t)
}

// arriveAfter delivers t to peer j after delay.
func (x *sim) arriveAfter(delay units.Time, j int, t task) {
	x.e.At(x.e.Now()+delay, func() { x.arrive(j, t) })
}

// arrive queues t at peer j; a forward sent to a peer that failed on the
// way goes to another of its stage.
func (x *sim) arrive(j int, t task) {
	switch {
	case t.gen != x.gen[t.mb]:
	case !x.peers[j].alive:
		x.route(t, 0)
	default:
		x.peers[j].queue = append(x.peers[j].queue, t)
		x.next(j)
	}
}

// next starts peer j's next task if it is free: the oldest backward, else
// the oldest forward; a task of a microbatch sent again is dropped.
func (x *sim) next(j int) {
	p := &x.peers[j]
	if p.busy || !p.alive {
		return
	}
	i := -1
	for k, t := range p.queue {
		if t.gen == x.gen[t.mb] && (i < 0 || t.back && !p.queue[i].back) {
			i = k
		}
	}
	if i < 0 {
		p.queue = p.queue[:0]
		x.drained(j)
		return
	}
	t := p.queue[i]
	p.queue = append(p.queue[:i], p.queue[i+1:]...)
	p.busy, p.run, p.runFrom = true, t, x.e.Now()
	x.e.At(x.e.Now()+x.dur(p, t), func() { x.finished(j, t) })
}

// finished records peer j's task t and passes the microbatch on.
func (x *sim) finished(j int, t task) {
	p := &x.peers[j]
	if !p.alive || !p.busy || p.run != t {
		return // the peer failed while computing it
	}
	p.busy = false
	if t.gen == x.gen[t.mb] {
		x.span(j, t, p.runFrom)
		x.pass(j, t)
	}
	x.next(j)
}

// pass moves microbatch t.mb on after peer j ran t.
func (x *sim) pass(j int, t task) {
	p := &x.peers[j]
	switch {
	case !t.back:
		p.holds++
		x.holder[t.mb*x.y.Stages+t.stage] = j
		if next := x.step(t.mb, t.stage, 1); next >= 0 {
			x.route(task{mb: t.mb, gen: t.gen, stage: next}, x.comm)
		} else {
			p.queue = append(p.queue, task{mb: t.mb, gen: t.gen, stage: t.stage, back: true})
		}
	case t.stage > 0:
		p.holds--
		x.holder[t.mb*x.y.Stages+t.stage] = -1
		prev := x.step(t.mb, t.stage, -1) // ≥ 0: stage 0 is never skipped
		x.arriveAfter(x.comm, x.holder[t.mb*x.y.Stages+prev], task{mb: t.mb, gen: t.gen, stage: prev, back: true})
	default:
		p.holds--
		x.holder[t.mb*x.y.Stages] = -1
		x.done = append(x.done, x.e.Now())
		if x.sent < x.y.Microbatches {
			x.send()
		}
	}
}

// span records peer j's task t, run from start to now; a microbatch sent
// again after a failure is an attempt of its own ("F7′1").
func (x *sim) span(j int, t task, start units.Time) {
	k, label := timeline.Forward, "F"
	if t.back {
		k, label = timeline.Backward, "B"
	}
	label += strconv.Itoa(t.mb)
	if t.gen > 0 {
		label += "′" + strconv.Itoa(t.gen)
	}
	x.tl.Spans = append(x.tl.Spans, timeline.Span{GPU: j, Kind: k, Microbatch: t.mb + t.gen*x.y.Microbatches, Stage: t.stage,
		Label: label, Start: start, End: x.e.Now()})
}

// finish closes the run's states and sorts its spans.
func (x *sim) finish() (*timeline.Timeline, error) {
	tl := x.tl
	slices.SortStableFunc(tl.Spans, func(a, b timeline.Span) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU))
	})
	for _, sp := range tl.Spans {
		tl.End = max(tl.End, sp.End)
	}
	for _, st := range tl.States {
		tl.End = max(tl.End, st.End)
	}
	for i := range tl.States {
		if tl.States[i].End < 0 {
			tl.States[i].End = tl.End
		}
		tl.States[i].End = max(tl.States[i].End, tl.States[i].Start)
	}
	x.rec.measure(x, tl)
	return tl, tl.Validate()
}
