//go:build !js

package kineto

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// The CUDA streams a written trace puts a rank's work on: PyTorch's
// default compute stream is 7 in the profilers' traces, and NCCL's
// communicator streams come after it.
const (
	computeStream = 7
	commStream    = 20
)

// hostPID is the host process's pid of rank gpu in a written trace (any
// number that no device index takes).
func hostPID(gpu int) int { return 1<<20 + gpu }

// WriteRank writes GPU gpu's part of a run as one rank's trace in the
// format Kineto writes (Chrome Trace Event Format: distributedInfo,
// traceEvents of complete events in microseconds, exact to the
// nanosecond), so that the tools that read PyTorch profiles read it, and
// Read and Timeline give the run back: the rank's spans as kernels on
// stream 7, the collectives it takes part in as NCCL kernels on stream 20
// with the args PyTorch gives them (Collective name, In/Out msg nelems,
// dtype, Group size), one ProfilerStep#0 from 0 to the run's end, and
// ParaPlay's own fields (Meta, and args named "paraplay …"). What the
// format has no place for is left out: the links and each message of a
// detailed run (a collective is written over its whole interval on every
// rank), memory, faults and the strategies' records.
func WriteRank(w io.Writer, tl *timeline.Timeline, gpu int) error {
	if gpu < 0 || gpu >= len(tl.GPUs) {
		return fmt.Errorf("kineto: GPU %d is not in the run (%d GPUs)", gpu, len(tl.GPUs))
	}
	g := tl.GPUs[gpu]
	bw := bufio.NewWriterSize(w, 1<<16)
	meta, _ := json.Marshal(Meta{Title: tl.Title, Fidelity: tl.Fidelity, GPU: gpu, Name: g.Name, Node: g.Node, Role: g.Role})
	fmt.Fprintf(bw, "{\n \"schemaVersion\": 1,\n \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d},\n \"%s\": %s,\n \"traceEvents\": [\n",
		gpu, len(tl.GPUs), metaKey, meta)
	ew := &eventWriter{w: bw, device: localIndex(tl, gpu), host: hostPID(gpu)}
	ew.metadata(g)
	ew.x("user_annotation", "ProfilerStep#0", ew.host, ew.host, 0, tl.End, nil)
	for s := range tl.AllSpans() {
		if s.GPU == gpu {
			ew.span(s)
		}
	}
	for i := range tl.Collectives {
		c := &tl.Collectives[i]
		for _, r := range c.GPUs {
			if r == gpu {
				ew.collective(i, c)
				break
			}
		}
	}
	bw.WriteString("\n ]\n}\n")
	return bw.Flush()
}

// localIndex is the GPU's index among its node's GPUs: its CUDA device.
func localIndex(tl *timeline.Timeline, gpu int) int {
	n := 0
	for _, g := range tl.GPUs[:gpu] {
		if g.Node == tl.GPUs[gpu].Node {
			n++
		}
	}
	return n
}

// eventWriter writes one trace's events, a comma before each but the first.
type eventWriter struct {
	w            *bufio.Writer
	device, host int
	n            int
	buf          []byte
}

// metadata names the host process and the GPU's streams, as Kineto does.
func (ew *eventWriter) metadata(g timeline.GPU) {
	for _, m := range []struct {
		name     string
		pid, tid int
		key, val string
	}{
		{"process_name", ew.host, 0, "name", "paraplay " + g.Name},
		{"process_labels", ew.host, 0, "labels", "CPU"},
		{"process_name", ew.device, 0, "name", "paraplay " + g.Name},
		{"process_labels", ew.device, 0, "labels", "GPU " + strconv.Itoa(ew.device)},
		{"thread_name", ew.device, computeStream, "name", "stream 7 "},
		{"thread_name", ew.device, commStream, "name", "stream 20 "},
	} {
		b := ew.start()
		b = append(b, `{"ph": "M", "name": `...)
		b = appendString(b, m.name)
		b = fmt.Appendf(b, `, "pid": %d, "tid": %d, "ts": 0, "args": {`, m.pid, m.tid)
		b = append(appendString(append(appendString(b, m.key), ": "...), m.val), "}}"...)
		ew.flush(b)
	}
}

// arg is one entry of an event's args: a string, an int or a list of ints.
type arg struct {
	key  string
	str  string
	num  int64
	ints []int
	kind byte // 's', 'i' or 'l'
}

// x writes a complete event.
func (ew *eventWriter) x(cat, name string, pid, tid int, start, end units.Time, args []arg) {
	b := ew.start()
	b = append(b, `{"ph": "X", "cat": `...)
	b = append(appendString(b, cat), `, "name": `...)
	b = appendString(b, name)
	b = fmt.Appendf(b, `, "pid": %d, "tid": %d, "ts": `, pid, tid)
	b = append(appendMicros(b, start), `, "dur": `...)
	b = appendMicros(b, end-start)
	if len(args) > 0 {
		b = append(b, `, "args": {`...)
		for i, a := range args {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(appendString(b, a.key), ": "...)
			switch a.kind {
			case 's':
				b = appendString(b, a.str)
			case 'i':
				b = strconv.AppendInt(b, a.num, 10)
			default:
				b = append(b, '[')
				for j, v := range a.ints {
					if j > 0 {
						b = append(b, ", "...)
					}
					b = strconv.AppendInt(b, int64(v), 10)
				}
				b = append(b, ']')
			}
		}
		b = append(b, '}')
	}
	ew.flush(append(b, '}'))
}

func (ew *eventWriter) start() []byte {
	b := ew.buf[:0]
	if ew.n > 0 {
		b = append(b, ",\n"...)
	}
	ew.n++
	return append(b, "  "...)
}

func (ew *eventWriter) flush(b []byte) {
	ew.buf = b
	ew.w.Write(b)
}

// span writes one span as a kernel on the compute stream.
func (ew *eventWriter) span(s timeline.Span) {
	ew.x("kernel", s.Label, ew.device, computeStream, s.Start, s.End, []arg{
		{key: "device", num: int64(ew.device), kind: 'i'},
		{key: "stream", num: computeStream, kind: 'i'},
		{key: "paraplay kind", str: string(s.Kind), kind: 's'},
		{key: "paraplay microbatch", num: int64(s.Microbatch), kind: 'i'},
		{key: "paraplay stage", num: int64(s.Stage), kind: 'i'},
		{key: "paraplay iteration", num: int64(s.Iteration), kind: 'i'},
	})
}

// collective writes collective i as an NCCL kernel on the comm stream.
func (ew *eventWriter) collective(i int, c *timeline.Collective) {
	ew.x("kernel", ncclName(c), ew.device, commStream, c.Start, c.End, []arg{
		{key: "device", num: int64(ew.device), kind: 'i'},
		{key: "stream", num: commStream, kind: 'i'},
		{key: "Collective name", str: pytorchName(c.Name), kind: 's'},
		{key: "In msg nelems", num: int64(c.Bytes), kind: 'i'},
		{key: "Out msg nelems", num: int64(c.Bytes), kind: 'i'},
		{key: "Group size", num: int64(c.Ranks), kind: 'i'},
		{key: "dtype", str: "Byte", kind: 's'},
		{key: "paraplay collective", num: int64(i), kind: 'i'},
		{key: "paraplay op", str: string(c.Name), kind: 's'},
		{key: "paraplay algorithm", str: c.Algorithm, kind: 's'},
		{key: "paraplay protocol", str: c.Protocol, kind: 's'},
		{key: "paraplay channels", num: int64(c.Channels), kind: 'i'},
		{key: "paraplay purpose", str: c.Purpose, kind: 's'},
		{key: "paraplay ranks", ints: c.GPUs, kind: 'l'},
	})
}

// ncclName is an NCCL kernel name for c, "ncclDevKernel_AllReduce_RING_LL":
// the operation in NCCL's casing, then the algorithm and protocol when set.
func ncclName(c *timeline.Collective) string {
	var b strings.Builder
	b.WriteString("ncclDevKernel_")
	for _, w := range strings.Split(string(c.Name), "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	for _, s := range []string{c.Algorithm, c.Protocol} {
		if s != "" {
			b.WriteString("_" + strings.ToUpper(s))
		}
	}
	return b.String()
}

// pytorchName is the Collective name PyTorch's profiler gives an operation.
func pytorchName(op collective.Op) string {
	switch op {
	case collective.OpAllReduce:
		return "allreduce"
	case collective.OpAllGather:
		return "allgather"
	case collective.OpSendRecv, collective.OpPipelineSend, collective.OpSend:
		return "send"
	}
	return string(op)
}

// appendMicros writes ns as microseconds with three decimals: exact.
func appendMicros(b []byte, t units.Time) []byte {
	if t < 0 {
		b = append(b, '-')
		t = -t
	}
	b = strconv.AppendInt(b, int64(t/1000), 10)
	frac := int64(t % 1000)
	return append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}

// appendString writes s as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
