//go:build !js

package kineto

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// number is a JSON number's text, as encoding/json's UseNumber keeps it.
type number = json.Number

// rawValue is a JSON value's text, decoded when used.
type rawValue = json.RawMessage

// analysisInputs keeps the host's runtime calls (the CPU launch gaps)
// and GEMM operators (calibration's input), which paraplay import,
// calibrate and compare use; the browser, which only shows the timeline,
// skips them (read_js.go).
const analysisInputs = true

// decodeFile walks one file with encoding/json's Decoder: the command
// line's path (the browser's is scanFile).
func decodeFile(rd *reader, r io.Reader) error {
	g := &guard{r: r, lim: rd.lim}
	dec := json.NewDecoder(g)
	dec.UseNumber()
	g.dec = dec
	w := &jsonWalk{reader: rd, dec: dec, guard: g}
	if err := w.file(); err != nil {
		return w.explain(err)
	}
	return nil
}

// decodeDims reads a GEMM operator's Input Dims; false when they are not
// a list of lists of whole numbers.
func decodeDims(raw rawValue) ([][]int64, bool) {
	var dims [][]int64
	return dims, json.Unmarshal(raw, &dims) == nil
}

// decodeTypes reads a GEMM operator's Input type, as far as it is a list
// of strings.
func decodeTypes(raw rawValue) []string {
	var types []string
	_ = json.Unmarshal(raw, &types) // the dtype is optional
	return types
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

// jsonWalk walks one file with encoding/json.
type jsonWalk struct {
	*reader
	dec   *json.Decoder
	guard *guard
}

// file walks the top-level object: traceEvents, distributedInfo,
// deviceProperties and ParaPlay's own description; other keys are skipped.
func (rd *jsonWalk) file() error {
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
func (rd *jsonWalk) eventList() error {
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
func (rd *jsonWalk) expect(want json.Delim, why string) error {
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

// explain turns the decoder's errors into ones that name the byte offset
// and say what went wrong: a syntax error where it is, a file that ends
// too early where it ends.
func (rd *jsonWalk) explain(err error) error {
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

// distributed reads distributedInfo.
func (rd *jsonWalk) distributed() error {
	at := rd.dec.InputOffset()
	var d distInfo
	if err := rd.dec.Decode(&d); err != nil {
		return rd.typeError(err, at, "distributedInfo")
	}
	return rd.setDistributed(&d, at)
}

// devices reads deviceProperties.
func (rd *jsonWalk) devices() error {
	at := rd.dec.InputOffset()
	var ds []deviceProps
	if err := rd.dec.Decode(&ds); err != nil {
		return rd.typeError(err, at, "deviceProperties")
	}
	return rd.setDevices(ds, at)
}

// meta reads the top-level run description.
func (rd *jsonWalk) meta() error {
	at := rd.dec.InputOffset()
	var m Meta
	if err := rd.dec.Decode(&m); err != nil {
		return rd.typeError(err, at, metaKey)
	}
	return rd.setMeta(&m, at)
}

// typeError names the key of a top-level value of the wrong shape.
func (rd *jsonWalk) typeError(err error, at int64, key string) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return rd.at(at, fmt.Sprintf("%s: %s is a JSON %s, which it cannot be", key, fieldName(te), te.Value))
	}
	return err
}
