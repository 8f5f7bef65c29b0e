package timeline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
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
	q, err := json.Marshal(s)
	if err != nil { // a string always encodes
		panic(err)
	}
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
	od, err := json.MarshalIndent(other, " ", " ")
	if err != nil {
		return err
	}
	b = append(b, ",\n \"displayTimeUnit\": \"ns\",\n \"otherData\": "...)
	b = append(append(b, od...), "\n}\n"...)
	if _, err := t.w.Write(b); err != nil {
		return err
	}
	return t.w.Flush()
}

// number appends f as encoding/json writes a float64: the shortest
// decimal that reads back as f, in exponent form below 1e-6 and from 1e21
// on, with the exponent's leading zero dropped (1e-07 is written 1e-7).
// NaN and infinities have no JSON form: they fail the write, as they fail
// encoding/json.
func (t *traceWriter) number(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if t.err == nil {
			t.err = fmt.Errorf("timeline: trace: unsupported value %v", f)
		}
		return b
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}
