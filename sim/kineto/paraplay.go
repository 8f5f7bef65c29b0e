package kineto

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/timeline"
)

// metaKey is the top-level key of the run description in a trace ParaPlay
// writes; the profilers' tools ignore keys they do not know.
const metaKey = "paraplay"

// Meta is what a trace ParaPlay wrote (WriteRank) says beyond Kineto's
// fields, so that reading it back gives the timeline it was written from:
// the run's title and fidelity and the rank's GPU. Each span's kind,
// microbatch, stage and iteration ride in its kernel's args, and each
// collective's algorithm, channels, purpose and ranks in its NCCL kernel's.
type Meta struct {
	// Title and Fidelity are the timeline's.
	Title    string `json:"title"`
	Fidelity string `json:"fidelity"`
	// GPU is the rank's GPU id in the run, Name its label, Node its
	// server and Role its role (timeline.GPU).
	GPU  int    `json:"gpu"`
	Name string `json:"name"`
	Node int    `json:"node"`
	Role string `json:"role,omitempty"`
	// spans holds the span args of the kernels ParaPlay wrote, by
	// Kernel.Ref.
	spans []spanMeta
}

// spanMeta is a span's own fields, from its kernel's args.
type spanMeta struct {
	kind                         timeline.Kind
	microbatch, stage, iteration int
}

// spanArgs are the args a span's kernel carries.
type spanArgs struct {
	Kind       string `json:"paraplay kind"`
	Microbatch number `json:"paraplay microbatch"`
	Stage      number `json:"paraplay stage"`
	Iteration  number `json:"paraplay iteration"`
}

// collArgs are the args a collective's NCCL kernel carries beyond
// PyTorch's: the collective's index in the run and its fields.
type collArgs struct {
	CollIndex number `json:"paraplay collective"`
	Op        string `json:"paraplay op"`
	Algorithm string `json:"paraplay algorithm"`
	Protocol  string `json:"paraplay protocol"`
	Channels  number `json:"paraplay channels"`
	Purpose   string `json:"paraplay purpose"`
	Ranks     []int  `json:"paraplay ranks"`
}

// setMeta checks and keeps the top-level run description.
func (rd *reader) setMeta(m *Meta, at int64) error {
	if m.GPU < 0 || m.GPU >= 1<<24 || m.Node < 0 || m.Node >= 1<<24 {
		return rd.at(at, fmt.Sprintf("%s: gpu %d, node %d: want 0..%d", metaKey, m.GPU, m.Node, 1<<24-1))
	}
	if rd.t.ParaPlay != nil {
		m.spans = rd.t.ParaPlay.spans // events came first
	}
	rd.t.ParaPlay = m
	return nil
}

// paraplay files a span's args on its kernel, when it has them.
func (rd *reader) paraplay(e *rawEvent, k *Kernel, at int64) error {
	a := &e.Args.spanArgs
	if a.Kind == "" {
		return nil
	}
	var mb, stage, it int64
	if err := rd.ids(e, at, idField{"paraplay microbatch", a.Microbatch, &mb}, idField{"paraplay stage", a.Stage, &stage},
		idField{"paraplay iteration", a.Iteration, &it}); err != nil {
		return err
	}
	if mb < 0 || stage < 0 || it < 0 || mb >= 1<<30 || stage >= 1<<30 || it >= 1<<30 {
		return rd.bad(at, e, "args", fmt.Sprintf("microbatch %d, stage %d, iteration %d", mb, stage, it), "want 0..2^30")
	}
	if rd.t.ParaPlay == nil {
		rd.t.ParaPlay = &Meta{}
	}
	m := rd.t.ParaPlay
	k.Class, k.Ref = Spanned, int32(len(m.spans))
	m.spans = append(m.spans, spanMeta{timeline.Kind(a.Kind), int(mb), int(stage), int(it)})
	return nil
}

// paraplayCollective files a collective's args on its NCCL kernel, when
// it has them.
func (rd *reader) paraplayCollective(e *rawEvent, n *NCCL, at int64) error {
	a := &e.Args.collArgs
	if a.CollIndex == "" {
		return nil
	}
	var idx, ch int64
	if err := rd.ids(e, at, idField{"paraplay collective", a.CollIndex, &idx}, idField{"paraplay channels", a.Channels, &ch}); err != nil {
		return err
	}
	if idx < 0 || idx >= 1<<30 || ch < 0 || ch > 1<<16 || len(a.Ranks) == 0 || len(a.Ranks) > 1<<24 {
		return rd.bad(at, e, "args", fmt.Sprintf("collective %d, channels %d, %d ranks", idx, ch, len(a.Ranks)), "out of range")
	}
	for _, r := range a.Ranks {
		if r < 0 || r >= 1<<24 {
			return rd.bad(at, e, "args.paraplay ranks", fmt.Sprint(r), "want 0..2^24")
		}
	}
	if a.Op != "" {
		n.Op = collective.Op(a.Op)
	}
	n.Collective, n.Algorithm, n.Protocol = int32(idx), a.Algorithm, a.Protocol
	n.Channels, n.Purpose, n.Ranks = int(ch), a.Purpose, a.Ranks
	return nil
}
