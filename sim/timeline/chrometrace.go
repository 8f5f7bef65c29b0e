package timeline

import (
	"fmt"
	"io"
)

// Thread ids of the Chrome trace: each GPU is a process with a compute
// stream and a communication stream, as the profilers of real GPUs show them.
const (
	computeThread = 1
	commThread    = 2
	faultThread   = 3 // fault and recovery states (States), when there are any
)

// traceEvent is one entry of the Chrome Trace Event Format ("JSON Object
// Format", complete events of phase "X" and metadata events of phase "M").
// Times are microseconds, as the format requires.
type traceEvent struct {
	Name string
	Cat  string // omitted when empty
	Ph   string
	Ts   float64
	Dur  float64 // omitted when 0
	Pid  int
	Tid  int
	Args []traceArg // in the order of their keys; omitted when empty
}

// traceArg is one entry of an event's "args" object: an int, a float, a
// string or a list of ints, whichever its kind says.
type traceArg struct {
	Key  string
	Kind argKind
	Int  int64
	Num  float64
	Str  string
	Ints []int
}

type argKind uint8

const (
	argInt argKind = iota
	argFloat
	argString
	argInts
)

func intArg(key string, v int64) traceArg     { return traceArg{Key: key, Kind: argInt, Int: v} }
func stringArg(key, v string) traceArg        { return traceArg{Key: key, Kind: argString, Str: v} }
func floatArg(key string, v float64) traceArg { return traceArg{Key: key, Kind: argFloat, Num: v} }

// WriteChromeTrace writes the run in the Chrome Trace Event Format, which
// Perfetto (ui.perfetto.dev) and chrome://tracing open: one process per GPU,
// with a "compute" thread for spans and a "communication" thread for the
// messages the GPU sends. The output is deterministic: the same timeline
// gives the same bytes. It streams: each event is encoded and written as it
// is made, so memory stays bounded however long the run (the bytes are those
// encoding/json gives the whole file with a one-space indent).
func (tl *Timeline) WriteChromeTrace(w io.Writer) error {
	tw := newTraceWriter(w)
	tl.traceEvents(tw.event)
	return tw.finish(map[string]string{"title": tl.Title, "fidelity": tl.Fidelity, "generator": "ParaPlay"})
}

// traceEvents hands each event of the trace to ev, in the file's order:
// the GPUs' names, the fault states, the spans, the transfers.
func (tl *Timeline) traceEvents(ev func(traceEvent)) {
	for _, g := range tl.GPUs {
		ev(traceEvent{Name: "process_name", Ph: "M", Pid: g.ID, Args: []traceArg{stringArg("name", g.Name)}})
		ev(traceEvent{Name: "process_sort_index", Ph: "M", Pid: g.ID, Args: []traceArg{intArg("sort_index", int64(g.ID))}})
		ev(traceEvent{Name: "thread_name", Ph: "M", Pid: g.ID, Tid: computeThread, Args: []traceArg{stringArg("name", "compute")}})
		ev(traceEvent{Name: "thread_name", Ph: "M", Pid: g.ID, Tid: commThread, Args: []traceArg{stringArg("name", "communication")}})
		if len(tl.States) > 0 {
			ev(traceEvent{Name: "thread_name", Ph: "M", Pid: g.ID, Tid: faultThread, Args: []traceArg{stringArg("name", "faults")}})
		}
	}
	for _, s := range tl.States {
		if s.GPU < 0 || s.GPU >= len(tl.GPUs) {
			continue
		}
		var args []traceArg
		if s.Factor > 0 {
			args = []traceArg{floatArg("factor", s.Factor)}
		}
		ev(traceEvent{Name: s.State, Cat: "fault", Ph: "X", Pid: s.GPU, Tid: faultThread,
			Ts: s.Start.Microseconds(), Dur: (s.End - s.Start).Microseconds(), Args: args})
	}
	args := make([]traceArg, 0, 7) // reused: the writer encodes an event before the next is made
	for s := range tl.AllSpans() {
		ev(traceEvent{
			Name: s.Label, Cat: string(s.Kind), Ph: "X", Pid: s.GPU, Tid: computeThread,
			Ts: s.Start.Microseconds(), Dur: (s.End - s.Start).Microseconds(),
			Args: append(args[:0], intArg("microbatch", int64(s.Microbatch))),
		})
	}
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		name := fmt.Sprintf("send chunk %d → %s", x.Chunk, tl.GPUs[x.Dst].Name)
		a := append(args[:0], intArg("bytes", int64(x.Bytes)), intArg("chunk", int64(x.Chunk)))
		cat := "p2p"
		if x.Collective >= 0 {
			c := tl.Collectives[x.Collective]
			cat = c.Name.Label()
			a = append(a, stringArg("collective", c.Algorithm+" "+c.Name.Label()))
		}
		a = append(a, intArg("dst", int64(x.Dst)), traceArg{Key: "path", Kind: argInts, Ints: x.Path})
		if x.Collective >= 0 {
			a = append(a, stringArg("phase", x.Phase))
		}
		a = append(a, intArg("step", int64(x.Step)))
		ev(traceEvent{
			Name: name, Cat: cat, Ph: "X", Pid: x.Src, Tid: commThread,
			Ts: x.Start.Microseconds(), Dur: (x.End - x.Start).Microseconds(), Args: a,
		})
	}
	if tl.Fidelity == Measured {
		tl.collectiveEvents(ev, args)
	}
}

// collectiveEvents hands ev each collective of a measured run (which has
// no transfers) on the communication thread of each GPU in it: a
// profiler's NCCL kernels. (A simulated run's trace shows its messages;
// its analytic collectives are not in the work budget's trace size.)
func (tl *Timeline) collectiveEvents(ev func(traceEvent), args []traceArg) {
	for _, c := range tl.Collectives {
		a := append(args[:0], stringArg("algorithm", c.Algorithm), intArg("bytes", int64(c.Bytes)), intArg("ranks", int64(c.Ranks)))
		for _, g := range c.GPUs {
			ev(traceEvent{Name: c.Name.Label(), Cat: "collective", Ph: "X", Pid: g, Tid: commThread,
				Ts: c.Start.Microseconds(), Dur: (c.End - c.Start).Microseconds(), Args: a})
		}
	}
}
