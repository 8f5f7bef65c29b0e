package swarm

import (
	"cmp"
	"fmt"
	"slices"

	"paraplay/sim/radixheap"
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

// event kinds.
const (
	evArrive = iota
	evDone
	evRebalance
	evFault
	evMoved
)

type event struct {
	kind, peer int
	t          task
}

// sim is one run.
type sim struct {
	s       scenario.Scenario
	y       Settings
	now     units.Time
	q       radixheap.Queue[event]
	peers   []peer
	inbox   [][]task // by stage: forwards no peer could take yet
	holder  [][]int  // by microbatch and stage: the peer holding its activations (−1)
	gen     []int    // by microbatch: how many times it was sent again
	sent    int      // microbatches sent so far
	done    []units.Time
	comm    units.Time // α + activation/β, a message between two peers
	tl      *timeline.Timeline
	rec     *Record
	moveEnd units.Time
	cap     int // microbatches in flight: the trainers send one as one finishes
}

// Simulate plays a SWARM run (see the package doc) and returns its
// timeline, which passes timeline.Validate.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	x := newSim(s)
	for x.q.Len() > 0 {
		t, e := x.q.Pop()
		x.now = t
		x.tl.Events++
		x.handle(e)
	}
	if len(x.done) < x.y.Microbatches {
		return nil, fmt.Errorf("swarm: %d of %d microbatches finished: a stage has no live peer left (set swarm.rebalance so that a peer moves to it)", len(x.done), x.y.Microbatches)
	}
	return x.finish()
}

func newSim(s scenario.Scenario) *sim {
	y := SettingsOf(&s)
	n := s.NumGPUs()
	x := &sim{s: s, y: y, inbox: make([][]task, y.Stages), holder: make([][]int, y.Microbatches), gen: make([]int, y.Microbatches),
		comm: s.Link.Latency + s.Link.Bandwidth.TransferTime(y.Activation)}
	x.tl = &timeline.Timeline{Title: s.Title(), Fidelity: "analytic"}
	for j := range n {
		v := 1.0
		if len(s.Sync.Speeds) == n {
			v = s.Sync.Speeds[j]
		}
		// Peers are dealt to stages in turn: peer j serves stage j mod S.
		x.peers = append(x.peers, peer{speed: v, stage: j % y.Stages, alive: true})
		x.tl.GPUs = append(x.tl.GPUs, timeline.GPU{ID: j, Name: fmt.Sprint("peer ", j), Node: j})
		x.tl.Links = append(x.tl.Links, timeline.Link{ID: 2 * j, From: j, To: n, Bandwidth: s.Link.Bandwidth},
			timeline.Link{ID: 2*j + 1, From: n, To: j, Bandwidth: s.Link.Bandwidth})
	}
	x.tl.Switches = []timeline.Switch{{ID: n, Name: "internet", Kind: "leaf", Node: -1}}
	x.rec = &Record{Stages: y.Stages, Initial: x.rate()}
	for i := range x.holder {
		x.holder[i] = slices.Repeat([]int{-1}, y.Stages)
	}
	for i, f := range s.Faults {
		x.q.Push(f.At, event{kind: evFault, peer: i})
	}
	if y.Rebalance > 0 {
		x.q.Push(y.Rebalance, event{kind: evRebalance})
	}
	x.cap = min(y.Microbatches, 4*n)
	for x.sent < x.cap {
		x.send()
	}
	return x
}

// send starts the next microbatch at the first stage: its trainer holds
// the data, so there is no message.
func (x *sim) send() {
	x.route(task{mb: x.sent}, 0)
	x.sent++
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
		end := max(x.now+delay, p.until) + x.dur(p, t) + x.dur(p, task{back: true})
		if best < 0 || end < bestEnd {
			best, bestEnd = j, end
		}
	}
	if best < 0 {
		x.inbox[t.stage] = append(x.inbox[t.stage], t)
		return
	}
	x.peers[best].until = bestEnd
	x.q.Push(x.now+delay, event{kind: evArrive, peer: best, t: t})
}

func (x *sim) handle(e event) {
	switch e.kind {
	case evArrive:
		p := &x.peers[e.peer]
		switch {
		case e.t.gen != x.gen[e.t.mb]:
			return
		case !p.alive: // it failed while the forward was on its way
			x.route(e.t, 0)
			return
		}
		p.queue = append(p.queue, e.t)
		x.next(e.peer)
	case evDone:
		x.finished(e.peer, e.t)
	case evRebalance:
		x.rebalance()
	case evFault:
		x.fault(x.s.Faults[e.peer])
	case evMoved:
		x.moved(e.peer)
	}
}

// next starts peer j's next task if it is free: the oldest backward, else
// the oldest forward; a task of a microbatch sent again is dropped.
func (x *sim) next(j int) {
	p := &x.peers[j]
	if p.busy || !p.alive {
		return
	}
	p.queue = slices.DeleteFunc(p.queue, func(t task) bool { return t.gen != x.gen[t.mb] })
	if len(p.queue) == 0 {
		x.drained(j)
		return
	}
	i := slices.IndexFunc(p.queue, func(t task) bool { return t.back })
	if i < 0 {
		i = 0
	}
	t := p.queue[i]
	p.queue = slices.Delete(p.queue, i, i+1)
	p.busy, p.run, p.runFrom = true, t, x.now
	x.q.Push(x.now+x.dur(p, t), event{kind: evDone, peer: j, t: t})
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
		x.holder[t.mb][t.stage] = j
		if t.stage+1 < x.y.Stages {
			x.route(task{mb: t.mb, gen: t.gen, stage: t.stage + 1}, x.comm)
		} else {
			p.queue = append(p.queue, task{mb: t.mb, gen: t.gen, stage: t.stage, back: true})
		}
	case t.stage > 0:
		p.holds--
		x.holder[t.mb][t.stage] = -1
		h := x.holder[t.mb][t.stage-1]
		x.q.Push(x.now+x.comm, event{kind: evArrive, peer: h, t: task{mb: t.mb, gen: t.gen, stage: t.stage - 1, back: true}})
	default:
		p.holds--
		x.holder[t.mb][0] = -1
		x.done = append(x.done, x.now)
		if x.sent < x.y.Microbatches {
			x.send()
		}
	}
}

// span records peer j's task t, run from start to now.
func (x *sim) span(j int, t task, start units.Time) {
	k, label := timeline.Forward, "F"
	if t.back {
		k, label = timeline.Backward, "B"
	}
	label += fmt.Sprint(t.mb)
	if t.gen > 0 {
		label += fmt.Sprint("′", t.gen) // sent again after a failure: an attempt of its own
	}
	x.tl.Spans = append(x.tl.Spans, timeline.Span{GPU: j, Kind: k, Microbatch: t.mb + t.gen*x.y.Microbatches, Stage: t.stage,
		Label: label, Start: start, End: x.now})
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
	x.rec.measure(x)
	tl.Extra = map[string]timeline.Record{Name: x.rec}
	if err := tl.Validate(); err != nil {
		return nil, fmt.Errorf("swarm: internal error, the timeline is inconsistent: %w", err)
	}
	return tl, nil
}
