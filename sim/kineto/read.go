package kineto

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
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
func Read(r io.Reader, name string, lim Limits) (*Trace, error) {
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	g := &guard{r: r, lim: lim}
	dec := json.NewDecoder(g)
	dec.UseNumber()
	g.dec = dec
	rd := &reader{dec: dec, guard: g, lim: lim, names: map[string]int32{},
		t: &Trace{Name: name, Rank: -1}}
	if err := rd.file(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, rd.explain(err))
	}
	rd.finish()
	return rd.t, nil
}

// guard is the reader under the decoder: it stops the input at
// Limits.MaxBytes, and when the decoder has buffered more than
// Limits.MaxValue past the last value it finished (one string or event
// that large), which bounds the decoder's buffer.
type guard struct {
	r   io.Reader
	dec *json.Decoder
	lim Limits
	n   int64 // bytes read so far
}

// limitError is a limit the input ran into, at a byte offset.
type limitError struct {
	at  int64
	msg string
}

func (e *limitError) Error() string { return fmt.Sprintf("byte %d: %s", e.at, e.msg) }

func (g *guard) Read(p []byte) (int, error) {
	if g.n >= g.lim.MaxBytes {
		return 0, &limitError{g.n, fmt.Sprintf("the file is larger than the %d bytes allowed (kineto.Limits.MaxBytes)", g.lim.MaxBytes)}
	}
	if at := g.dec.InputOffset(); g.n-at > g.lim.MaxValue {
		return 0, &limitError{at, fmt.Sprintf("one JSON value is larger than the %d bytes allowed (kineto.Limits.MaxValue)", g.lim.MaxValue)}
	}
	p = p[:min(int64(len(p)), g.lim.MaxBytes-g.n)]
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}

// reader walks one file.
type reader struct {
	dec       *json.Decoder
	guard     *guard
	lim       Limits
	t         *Trace
	names     map[string]int32
	classes   []Class // by name, for kernels (classOf)
	nameBytes int
	kept      int
	events    int            // events seen, for messages
	gpuLabels map[int64]bool // pids labelled "GPU n" in the metadata
}

// file walks the top-level object: traceEvents, distributedInfo,
// deviceProperties and ParaPlay's own description; other keys are skipped.
func (rd *reader) file() error {
	if err := rd.expect('{', "the file must be a JSON object with a traceEvents list"); err != nil {
		return err
	}
	seen := false
	for rd.dec.More() {
		tok, err := rd.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch key {
		case "traceEvents":
			seen = true
			err = rd.eventList()
		case "distributedInfo":
			err = rd.distributed()
		case "deviceProperties":
			err = rd.devices()
		case metaKey:
			err = rd.meta()
		default:
			err = skip(rd.dec)
		}
		if err != nil {
			return err
		}
	}
	if err := rd.expect('}', "the top-level object is not closed"); err != nil {
		return err
	}
	if _, err := rd.dec.Token(); err != io.EOF {
		return rd.at(rd.dec.InputOffset(), "data after the end of the top-level object")
	}
	if !seen {
		return rd.at(rd.dec.InputOffset(), "no traceEvents list: not a Chrome trace")
	}
	return nil
}

// eventList reads traceEvents one event at a time.
func (rd *reader) eventList() error {
	if err := rd.expect('[', "traceEvents must be a list"); err != nil {
		return err
	}
	for rd.dec.More() {
		at := rd.dec.InputOffset()
		var e rawEvent
		if err := rd.dec.Decode(&e); err != nil {
			var te *json.UnmarshalTypeError
			var se *json.SyntaxError
			var le *limitError
			switch {
			case errors.As(err, &te):
				return rd.at(at, fmt.Sprintf("event %d: %s is a JSON %s, which it cannot be", rd.events, fieldName(te), te.Value))
			case errors.As(err, &se) || errors.As(err, &le) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
				return err
			}
			return rd.at(at, fmt.Sprintf("event %d: %v", rd.events, err)) // a bad number in a number field
		}
		if err := rd.event(&e, at); err != nil {
			return err
		}
		rd.events++
	}
	return rd.expect(']', "traceEvents is not closed")
}

// fieldName is the event field a type error is about.
func fieldName(te *json.UnmarshalTypeError) string {
	if te.Field == "" {
		return "the event"
	}
	return fmt.Sprintf("field %q", te.Field)
}

// expect reads one delimiter.
func (rd *reader) expect(want json.Delim, why string) error {
	at := rd.dec.InputOffset()
	tok, err := rd.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return rd.at(at, fmt.Sprintf("found %v: %s", tok, why))
	}
	return nil
}

// at is an error at byte offset off.
func (rd *reader) at(off int64, msg string) error { return &limitError{off, msg} }

// explain turns the decoder's errors into ones that name the byte offset
// and say what went wrong: a syntax error where it is, a file that ends
// too early where it ends.
func (rd *reader) explain(err error) error {
	var le *limitError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &le):
		return le
	case errors.As(err, &se):
		return fmt.Errorf("byte %d: malformed JSON: %v", se.Offset, se)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("byte %d: the file ends in the middle of the JSON (truncated?)", rd.guard.n)
	}
	return fmt.Errorf("byte %d: %w", rd.dec.InputOffset(), err)
}

// skip reads and drops one value, token by token, so that an unused
// top-level key of any size costs no memory beyond one token.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

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
	slices.SortStableFunc(t.Kernels, func(a, b Kernel) int {
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
	slices.SortStableFunc(t.Launches, func(a, b Launch) int { return cmpInt(a.Correlation, b.Correlation) })
	slices.SortStableFunc(t.GEMMOps, func(a, b GEMMOp) int {
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
	slices.SortStableFunc(t.Steps, func(a, b Step) int { return cmpInt(a.Start, b.Start) })
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
