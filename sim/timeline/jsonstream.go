//go:build !js

package timeline

import (
	"bufio"
	"encoding"
	"encoding/json"
	"io"
	"iter"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// WriteJSON writes the timeline as JSON with a one-space indent, the bytes
// json.Encoder gives it, but field by field and, in the lists (spans,
// transfers, memory, ...), element by element: a run with 17 million spans
// is gigabytes of JSON, which encoding/json would build whole in memory
// before writing a byte.
//
// It is a function, not a method: only the command line writes it, and
// Ebitengine's text/template makes the linker keep every exported method
// of the app's types, so a method would carry encoding/json into the wasm.
func WriteJSON(tl *Timeline, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := writeFields(bw, reflect.ValueOf(tl).Elem(), tl); err != nil {
		return err
	}
	return bw.Flush()
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// writeFields writes struct v as the file's top-level object: each field
// as encoding/json names and omits it (the json tag's name and
// omitempty), a list one element at a time.
func writeFields(w *bufio.Writer, v reflect.Value, tl *Timeline) error {
	w.WriteString("{")
	first := true
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fv := v.Field(i)
		if strings.Contains(","+opts+",", ",omitempty,") && emptyJSON(fv) {
			continue
		}
		if !first {
			w.WriteString(",")
		}
		first = false
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		w.WriteString("\n ")
		w.Write(key)
		w.WriteString(": ")
		if f.Name == "Spans" && tl.Mirrors != nil {
			err = writeSpans(w, tl.AllSpans()) // a mirrored run's file lists every span
		} else {
			err = writeValue(w, fv)
		}
		if err != nil {
			return err
		}
	}
	if !first {
		w.WriteString("\n")
	}
	_, err := w.WriteString("}\n")
	return err
}

// writeValue writes a top-level field's value: a list element by element
// (unless its type encodes itself), anything else whole.
func writeValue(w *bufio.Writer, v reflect.Value) error {
	t := v.Type()
	if spans, ok := v.Interface().([]Span); ok && len(spans) > 0 {
		return writeSpans(w, slices.Values(spans))
	}
	if xs, ok := v.Interface().(Transfers); ok && xs.Len() > 0 {
		return writeList(w, xs.Len(), func(i int) any { return xs.At(i) })
	}
	if t.Kind() != reflect.Slice || v.IsNil() || v.Len() == 0 || t.Elem().Kind() == reflect.Uint8 ||
		t.Implements(jsonMarshaler) || t.Implements(textMarshaler) {
		b, err := json.MarshalIndent(v.Interface(), " ", " ")
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return writeList(w, v.Len(), func(i int) any { return v.Index(i).Interface() })
}

// writeList writes a list of n elements, elem(i) each.
func writeList(w *bufio.Writer, n int, elem func(i int) any) error {
	w.WriteString("[")
	for i := range n {
		b, err := json.MarshalIndent(elem(i), "  ", " ")
		if err != nil {
			return err
		}
		if i > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n  ")
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := w.WriteString("\n ]")
	return err
}

// emptyJSON is encoding/json's test for omitempty: false, 0, "", a nil
// pointer or interface, an empty list or map.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// writeSpans writes the spans, the longest list of a large run, by hand in
// the bytes json.MarshalIndent gives each (reflection would cost ten times
// as long); TestStreamedJSONOfEveryScenario holds the two equal.
func writeSpans(w *bufio.Writer, spans iter.Seq[Span]) error {
	q := &traceWriter{quoted: map[string][]byte{}} // for its cache of quoted strings
	b := make([]byte, 0, 256)
	first := true
	for sp := range spans {
		b = b[:0]
		if first {
			first = false
			b = append(b, "[\n  {"...)
		} else {
			b = append(b, ",\n  {"...)
		}
		b = strconv.AppendInt(append(b, "\n   \"gpu\": "...), int64(sp.GPU), 10)
		b = append(append(b, ",\n   \"kind\": "...), q.quote(string(sp.Kind))...)
		b = strconv.AppendInt(append(b, ",\n   \"microbatch\": "...), int64(sp.Microbatch), 10)
		b = strconv.AppendInt(append(b, ",\n   \"stage\": "...), int64(sp.Stage), 10)
		if sp.Iteration != 0 {
			b = strconv.AppendInt(append(b, ",\n   \"iteration\": "...), int64(sp.Iteration), 10)
		}
		b = append(append(b, ",\n   \"label\": "...), q.quote(sp.Label)...)
		b = strconv.AppendInt(append(b, ",\n   \"start\": "...), int64(sp.Start), 10)
		b = strconv.AppendInt(append(b, ",\n   \"end\": "...), int64(sp.End), 10)
		b = append(b, "\n  }"...)
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := w.WriteString("\n ]")
	return err
}
