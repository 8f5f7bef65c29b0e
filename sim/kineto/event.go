package kineto

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"paraplay/sim/units"
)

// rawEvent is one element of traceEvents with the fields the reader uses;
// the decoders skip the rest. Keys match as encoding/json matches them:
// exactly, else ignoring case.
type rawEvent struct {
	Ph   string  `json:"ph"`
	Cat  string  `json:"cat"`
	Name string  `json:"name"`
	Pid  anyID   `json:"pid"`
	Tid  anyID   `json:"tid"`
	Ts   number  `json:"ts"`
	Dur  number  `json:"dur"`
	Args rawArgs `json:"args"`
}

// rawArgs are the args the reader uses: ids that tie GPU work to the host,
// a copy's bytes, an NCCL kernel's collective (PyTorch's names), a host
// operator's input shapes, the metadata's names, and what ParaPlay adds to
// the traces it writes (WriteRank).
type rawArgs struct {
	External    number   `json:"External id"`
	Correlation number   `json:"correlation"`
	Device      number   `json:"device"`
	Stream      number   `json:"stream"`
	Bytes       number   `json:"bytes"`
	Collective  string   `json:"Collective name"`
	InElems     number   `json:"In msg nelems"`
	OutElems    number   `json:"Out msg nelems"`
	GroupSize   number   `json:"Group size"`
	DType       string   `json:"dtype"`
	Group       string   `json:"Process Group Name"`
	InputDims   rawValue `json:"Input Dims"`
	InputType   rawValue `json:"Input type"`
	Name        string   `json:"name"`
	Labels      string   `json:"labels"`
	spanArgs
	collArgs
}

// anyID is a pid or tid: a number, or a string such as "Spans".
type anyID struct {
	num   int64
	isNum bool
}

// UnmarshalJSON accepts a number or a string (which is not a number id).
func (a *anyID) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' || bytes.Equal(b, []byte("null")) {
		return nil
	}
	v, err := integer(string(b))
	if err != nil {
		return fmt.Errorf("kineto: id %s is not a whole number", b)
	}
	a.num, a.isNum = v, true
	return nil
}

// event files one decoded event that started at byte offset at.
func (rd *reader) event(e *rawEvent, at int64) error {
	switch e.Ph {
	case "X":
		return rd.complete(e, at)
	case "M":
		if e.Name == "process_labels" && e.Pid.isNum && strings.HasPrefix(e.Args.Labels, "GPU ") {
			if rd.gpuLabels == nil {
				rd.gpuLabels = map[int64]bool{}
			}
			if len(rd.gpuLabels) < maxDevices {
				rd.gpuLabels[e.Pid.num] = true
			}
		}
		return nil
	}
	rd.t.Ignored++
	return nil
}

// bad is an error about field of the event at byte at.
func (rd *reader) bad(at int64, e *rawEvent, field, value, want string) error {
	return rd.at(at, fmt.Sprintf("event %d (%q): %s %q: %s", rd.events, clip(e.Name), field, value, want))
}

// clip shortens a name for a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// complete files a complete ("X") event by its category.
func (rd *reader) complete(e *rawEvent, at int64) error {
	start, err := micros(e.Ts.String())
	if err != nil {
		return rd.bad(at, e, "ts", e.Ts.String(), "not a time in µs within ±106 days of the clock's zero")
	}
	dur, err := micros(e.Dur.String())
	if err != nil || dur < 0 || start > units.MaxTime-dur {
		return rd.bad(at, e, "dur", e.Dur.String(), "not a duration in µs, at least 0")
	}
	cat := strings.ToLower(e.Cat)
	switch {
	case cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "memcpy" || cat == "memset":
		return rd.gpu(e, cat, start, start+dur, at)
	case analysisInputs && (cat == "cuda_runtime" || cat == "runtime" || cat == "cuda_driver"):
		return rd.launch(e, start, start+dur, at)
	case strings.HasPrefix(e.Name, "ProfilerStep#"):
		n, err := strconv.Atoi(strings.TrimPrefix(e.Name, "ProfilerStep#"))
		if err != nil || n < 0 {
			return rd.bad(at, e, "name", e.Name, "a ProfilerStep# annotation needs a step number")
		}
		rd.t.Steps = append(rd.t.Steps, Step{Number: n, Start: start, End: start + dur})
		return rd.keep(at)
	case analysisInputs && (cat == "cpu_op" || cat == "operator") && isGEMMOp(e.Name):
		return rd.gemmOp(e, start, start+dur, at)
	}
	rd.t.Ignored++
	return nil
}

// ids reads the args' whole numbers, naming the first that is not one.
func (rd *reader) ids(e *rawEvent, at int64, fields ...idField) error {
	for _, f := range fields {
		v, err := integer(f.v.String())
		if err != nil {
			return rd.bad(at, e, "args."+f.name, f.v.String(), "not a whole number")
		}
		*f.out = v
	}
	return nil
}

// idField is one arg to read as a whole number into out.
type idField struct {
	name string
	v    number
	out  *int64
}

// gpu files a kernel, memcpy or memset.
func (rd *reader) gpu(e *rawEvent, cat string, start, end units.Time, at int64) error {
	a := &e.Args
	var ext, corr, dev, stream, size int64
	dev, stream = e.Pid.num, e.Tid.num
	if err := rd.ids(e, at, idField{"External id", a.External, &ext}, idField{"correlation", a.Correlation, &corr},
		idField{"bytes", a.Bytes, &size}); err != nil {
		return err
	}
	if a.Device != "" {
		if err := rd.ids(e, at, idField{"device", a.Device, &dev}); err != nil {
			return err
		}
	}
	if a.Stream != "" {
		if err := rd.ids(e, at, idField{"stream", a.Stream, &stream}); err != nil {
			return err
		}
	}
	if dev < 0 || dev >= 1<<15 || stream < -1<<31 || stream >= 1<<31 || size < 0 {
		return rd.bad(at, e, "args", fmt.Sprintf("device %d, stream %d, bytes %d", dev, stream, size), "out of range")
	}
	name, err := rd.intern(e.Name, at)
	if err != nil {
		return err
	}
	k := Kernel{Start: start, End: end, Correlation: corr, External: ext, Name: name,
		Stream: int32(stream), Device: int16(dev), Ref: -1, Class: rd.classOf(cat, name)}
	if a.Collective != "" || a.CollIndex != "" {
		k.Class = Collective
	}
	if k.Class.IsMemory() {
		k.Ref = int32(len(rd.t.Copies))
		rd.t.Copies = append(rd.t.Copies, units.Bytes(size))
	}
	if err := rd.paraplay(e, &k, at); err != nil {
		return err
	}
	if k.Class == Collective {
		if err := rd.nccl(e, &k, at); err != nil {
			return err
		}
	}
	rd.t.Kernels = append(rd.t.Kernels, k)
	return rd.keep(at)
}

// classOf classifies an activity by its category and interned name, each
// name once: a trace repeats a few thousand names millions of times.
func (rd *reader) classOf(cat string, name int32) Class {
	if c := classify(cat, "", false); c.IsMemory() {
		return c
	}
	for int(name) >= len(rd.classes) {
		rd.classes = append(rd.classes, numClasses) // not classified yet
	}
	if rd.classes[name] == numClasses {
		rd.classes[name] = classify(cat, rd.t.Names[name], false)
	}
	return rd.classes[name]
}

// nccl files a collective kernel's description.
func (rd *reader) nccl(e *rawEvent, k *Kernel, at int64) error {
	a := &e.Args
	var in, out, group int64
	if err := rd.ids(e, at, idField{"In msg nelems", a.InElems, &in}, idField{"Out msg nelems", a.OutElems, &out},
		idField{"Group size", a.GroupSize, &group}); err != nil {
		return err
	}
	if in < 0 || out < 0 || in > 1<<50 || out > 1<<50 || group < 0 || group > 1<<24 {
		return rd.bad(at, e, "args", fmt.Sprintf("nelems %d/%d, group size %d", in, out, group), "out of range")
	}
	op, algo, proto := ncclKernelName(e.Name)
	if o := ncclOp(a.Collective); o != "" {
		op = o
	}
	if op == "" {
		op = "nccl"
	}
	n := NCCL{Op: op, Algorithm: algo, Protocol: proto, Elements: max(in, out), DType: a.DType,
		GroupSize: int(group), Group: a.Group, Collective: -1}
	n.Bytes = units.Bytes(n.Elements * dtypeSize(a.DType))
	if err := rd.paraplayCollective(e, &n, at); err != nil {
		return err
	}
	k.Ref = int32(len(rd.t.NCCL))
	rd.t.NCCL = append(rd.t.NCCL, n)
	return nil
}

// launch files a host runtime call.
func (rd *reader) launch(e *rawEvent, start, end units.Time, at int64) error {
	rd.t.RuntimeCalls++
	rd.t.RuntimeTime += end - start
	var corr int64
	if err := rd.ids(e, at, idField{"correlation", e.Args.Correlation, &corr}); err != nil {
		return err
	}
	if corr == 0 {
		return nil
	}
	rd.t.Launches = append(rd.t.Launches, Launch{Correlation: corr, Start: start, End: end, Thread: e.Tid.num})
	return rd.keep(at)
}
