package timeline

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"

	"paraplay/sim/jsonout"
)

// traceWriter encodes a Chrome trace one event at a time into a buffered
// writer: the file of a run with 17 million spans is gigabytes, and
// building it whole (as json.Encoder does) needs several times that.
type traceWriter struct {
	w      *bufio.Writer
	buf    []byte
	events int
	quoted map[string][]byte // labels repeat: each is quoted once
	err    error
}

// maxQuoted caps the cache of quoted strings; names past it (a transfer's
// "send chunk 3 → GPU 12" is one per chunk and destination) are quoted
// each time.
const maxQuoted = 4096

func newTraceWriter(w io.Writer) *traceWriter {
	return &traceWriter{w: bufio.NewWriterSize(w, 1<<16), quoted: map[string][]byte{}}
}

// event encodes e as the second element level of the file: "  {" with
// its fields one level deeper.
func (t *traceWriter) event(e traceEvent) {
	if t.err != nil {
		return
	}
	b := t.buf[:0]
	if t.events == 0 {
		b = append(b, "{\n \"traceEvents\": [\n  {"...)
	} else {
		b = append(b, ",\n  {"...)
	}
	t.events++
	b = t.field(b, "name", e.Name)
	if e.Cat != "" {
		b = t.field(b, "cat", e.Cat)
	}
	b = t.field(b, "ph", e.Ph)
	b = t.number(append(b, ",\n   \"ts\": "...), e.Ts)
	if e.Dur != 0 {
		b = t.number(append(b, ",\n   \"dur\": "...), e.Dur)
	}
	b = strconv.AppendInt(append(b, ",\n   \"pid\": "...), int64(e.Pid), 10)
	b = strconv.AppendInt(append(b, ",\n   \"tid\": "...), int64(e.Tid), 10)
	if len(e.Args) > 0 {
		b = append(b, ",\n   \"args\": {"...)
		for i, a := range e.Args {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(append(b, "\n    "...), t.quote(a.Key)...), ": "...)
			b = t.arg(b, a)
		}
		b = append(b, "\n   }"...)
	}
	b = append(b, "\n  }"...)
	t.buf = b
	if t.err == nil {
		_, t.err = t.w.Write(b)
	}
}

// field appends `"key": "value"` on the event's next line; name, the
// first, opens the object instead of following a comma.
func (t *traceWriter) field(b []byte, key, value string) []byte {
	if key != "name" {
		b = append(b, ',')
	}
	b = append(append(b, "\n   "...), t.quote(key)...)
	return append(append(b, ": "...), t.quote(value)...)
}

func (t *traceWriter) arg(b []byte, a traceArg) []byte {
	switch a.Kind {
	case argInt:
		return strconv.AppendInt(b, a.Int, 10)
	case argFloat:
		return t.number(b, a.Num)
	case argString:
		return append(b, t.quote(a.Str)...)
	}
	if a.Ints == nil {
		return append(b, "null"...)
	}
	if len(a.Ints) == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, v := range a.Ints {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(b, "\n     "...), int64(v), 10)
	}
	return append(b, "\n    ]"...)
}

// quote is s as a JSON string, escaped as encoding/json escapes it.
func (t *traceWriter) quote(s string) []byte {
	if q, ok := t.quoted[s]; ok {
		return q
	}
	q := jsonout.String(nil, s)
	if len(t.quoted) < maxQuoted {
		t.quoted[s] = q
	}
	return q
}

// finish closes the event list, writes the file's other fields and flushes.
func (t *traceWriter) finish(other map[string]string) error {
	if t.err != nil {
		return t.err
	}
	b := t.buf[:0]
	if t.events == 0 {
		b = append(b, "{\n \"traceEvents\": null"...)
	} else {
		b = append(b, "\n ]"...)
	}
	b = append(b, ",\n \"displayTimeUnit\": \"ns\",\n \"otherData\": "...)
	b = append(appendOther(b, other), "\n}\n"...)
	if _, err := t.w.Write(b); err != nil {
		return err
	}
	return t.w.Flush()
}

// number appends f as encoding/json writes a float64 (jsonout.Float).
// NaN and infinities have no JSON form: they fail the write, as they fail
// encoding/json.
func (t *traceWriter) number(b []byte, f float64) []byte {
	b, err := jsonout.Float(b, f)
	if err != nil && t.err == nil {
		t.err = fmt.Errorf("timeline: trace: unsupported value %v", f)
	}
	return b
}

// appendOther appends the file's otherData as json.MarshalIndent(other,
// " ", " ") writes it at that depth: keys in ascending order, one a line.
func appendOther(b []byte, other map[string]string) []byte {
	if other == nil {
		return append(b, "null"...)
	}
	if len(other) == 0 {
		return append(b, "{}"...)
	}
	keys := make([]string, 0, len(other))
	for k := range other {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsonout.String(append(b, "\n  "...), k), ": "...)
		b = jsonout.String(b, other[k])
	}
	return append(b, "\n }"...)
}
