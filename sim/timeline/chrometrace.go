package timeline

import (
	"encoding/json"
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
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

type traceFile struct {
	TraceEvents     []traceEvent      `json:"traceEvents"`
	DisplayTimeUnit string            `json:"displayTimeUnit"`
	OtherData       map[string]string `json:"otherData"`
}

// WriteChromeTrace writes the run in the Chrome Trace Event Format, which
// Perfetto (ui.perfetto.dev) and chrome://tracing open: one process per GPU,
// with a "compute" thread for spans and a "communication" thread for the
// messages the GPU sends. The output is deterministic: the same timeline
// gives the same bytes.
func (tl *Timeline) WriteChromeTrace(w io.Writer) error {
	f := traceFile{DisplayTimeUnit: "ns", OtherData: map[string]string{
		"title": tl.Title, "fidelity": tl.Fidelity, "generator": "ParaPlay",
	}}
	ev := func(e traceEvent) { f.TraceEvents = append(f.TraceEvents, e) }
	for _, g := range tl.GPUs {
		ev(traceEvent{Name: "process_name", Ph: "M", Pid: g.ID, Args: map[string]any{"name": g.Name}})
		ev(traceEvent{Name: "process_sort_index", Ph: "M", Pid: g.ID, Args: map[string]any{"sort_index": g.ID}})
		ev(traceEvent{Name: "thread_name", Ph: "M", Pid: g.ID, Tid: computeThread, Args: map[string]any{"name": "compute"}})
		ev(traceEvent{Name: "thread_name", Ph: "M", Pid: g.ID, Tid: commThread, Args: map[string]any{"name": "communication"}})
		if len(tl.States) > 0 {
			ev(traceEvent{Name: "thread_name", Ph: "M", Pid: g.ID, Tid: faultThread, Args: map[string]any{"name": "faults"}})
		}
	}
	for _, s := range tl.States {
		if s.GPU < 0 || s.GPU >= len(tl.GPUs) {
			continue
		}
		args := map[string]any{}
		if s.Factor > 0 {
			args["factor"] = s.Factor
		}
		ev(traceEvent{Name: s.State, Cat: "fault", Ph: "X", Pid: s.GPU, Tid: faultThread,
			Ts: s.Start.Microseconds(), Dur: (s.End - s.Start).Microseconds(), Args: args})
	}
	for _, s := range tl.Spans {
		ev(traceEvent{
			Name: s.Label, Cat: string(s.Kind), Ph: "X", Pid: s.GPU, Tid: computeThread,
			Ts: s.Start.Microseconds(), Dur: (s.End - s.Start).Microseconds(),
			Args: map[string]any{"microbatch": s.Microbatch},
		})
	}
	for _, x := range tl.Transfers {
		name := fmt.Sprintf("send chunk %d → %s", x.Chunk, tl.GPUs[x.Dst].Name)
		args := map[string]any{"bytes": int64(x.Bytes), "path": x.Path, "dst": x.Dst, "step": x.Step, "chunk": x.Chunk}
		cat := "p2p"
		if x.Collective >= 0 {
			c := tl.Collectives[x.Collective]
			cat = c.Name.Label()
			args["collective"] = c.Algorithm + " " + c.Name.Label()
			args["phase"] = x.Phase
		}
		ev(traceEvent{
			Name: name, Cat: cat, Ph: "X", Pid: x.Src, Tid: commThread,
			Ts: x.Start.Microseconds(), Dur: (x.End - x.Start).Microseconds(), Args: args,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(f)
}
