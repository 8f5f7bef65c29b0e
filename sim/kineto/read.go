package kineto

import (
	"fmt"
	"io"
	"strings"
)

// maxNameBytes bounds the distinct names of GPU activities a trace may
// intern (a real trace has a few thousand, some hundreds of bytes each).
const maxNameBytes = 64 << 20

// maxDevices bounds deviceProperties (a host has at most a few dozen GPUs).
const maxDevices = 1024

// Read reads one rank's trace in the Chrome Trace Event Format as Kineto
// (the PyTorch profiler) writes it, from r, which must already be
// decompressed. It streams: the top-level object is walked key by key and
// traceEvents event by event, each decoded alone, so memory holds what the
// trace keeps (compact GPU activities, launches, GEMM operators, steps)
// and one event, never the file. lim bounds the bytes read, the size of
// one value and the events kept (the zero value is DefaultLimits). A
// malformed, truncated or oversized file is an error naming the problem
// and the byte offset where it was found; name prefixes it.
//
// The command line decodes with encoding/json (read_json.go); the browser,
// which carries no encoding/json, with the package's own tokenizer
// (scan.go), which gives the same trace for every input both accept
// (FuzzScan).
func Read(r io.Reader, name string, lim Limits) (*Trace, error) {
	return read(r, name, lim, decodeFile)
}

// read is Read with the decoder walk.
func read(r io.Reader, name string, lim Limits, walk func(*reader, io.Reader) error) (*Trace, error) {
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	rd := &reader{lim: lim, names: map[string]int32{}, t: &Trace{Name: name, Rank: -1}}
	if err := walk(rd, r); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rd.finish()
	return rd.t, nil
}

// limitError is a limit the input ran into, at a byte offset.
type limitError struct {
	at  int64
	msg string
}

func (e *limitError) Error() string { return fmt.Sprintf("byte %d: %s", e.at, e.msg) }

// reader files what a decoder walk finds: it is the same for both walks.
type reader struct {
	lim       Limits
	t         *Trace
	names     map[string]int32
	classes   []Class // by name, for kernels (classOf)
	nameBytes int
	kept      int
	events    int            // events seen, for messages
	gpuLabels map[int64]bool // pids labelled "GPU n" in the metadata
}

// at is an error at byte offset off.
func (rd *reader) at(off int64, msg string) error { return &limitError{off, msg} }

// keep counts one kept event against Limits.MaxEvents.
func (rd *reader) keep(at int64) error {
	rd.kept++
	if rd.kept > rd.lim.MaxEvents {
		return rd.at(at, fmt.Sprintf("more than %d events to keep (kineto.Limits.MaxEvents); import fewer profiler steps", rd.lim.MaxEvents))
	}
	return nil
}

// intern returns the index of name in Trace.Names.
func (rd *reader) intern(name string, at int64) (int32, error) {
	if i, ok := rd.names[name]; ok {
		return i, nil
	}
	rd.nameBytes += len(name)
	if rd.nameBytes > maxNameBytes {
		return 0, rd.at(at, fmt.Sprintf("more than %d bytes of distinct kernel names", maxNameBytes))
	}
	i := int32(len(rd.t.Names))
	rd.t.Names = append(rd.t.Names, strings.Clone(name))
	rd.names[name] = i
	return i, nil
}

// finish sorts what was kept and fills in what the metadata says.
func (rd *reader) finish() {
	t := rd.t
	sortStable(t.Kernels, func(a, b Kernel) int {
		switch {
		case a.Start != b.Start:
			return cmpInt(a.Start, b.Start)
		case a.Device != b.Device:
			return cmpInt(a.Device, b.Device)
		case a.Stream != b.Stream:
			return cmpInt(a.Stream, b.Stream)
		}
		return cmpInt(a.End, b.End)
	})
	sortStable(t.Launches, func(a, b Launch) int { return cmpInt(a.Correlation, b.Correlation) })
	sortStable(t.GEMMOps, func(a, b GEMMOp) int {
		if a.Thread != b.Thread {
			return cmpInt(a.Thread, b.Thread)
		}
		return cmpInt(a.Start, b.Start)
	})
	t.byExternal = map[int64]int{}
	for i, o := range t.GEMMOps {
		if _, dup := t.byExternal[o.External]; o.External != 0 && !dup {
			t.byExternal[o.External] = i
		}
	}
	sortStable(t.Steps, func(a, b Step) int { return cmpInt(a.Start, b.Start) })
	t.HostGPUs = len(t.Devices)
	if t.HostGPUs == 0 {
		t.HostGPUs = len(rd.gpuLabels)
	}
}

func cmpInt[T ~int64 | ~int32 | ~int16 | ~int](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
