package jsonout

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// String appends s as a JSON string, escaped as json.Marshal escapes it:
// the quote, the backslash and control characters (\b, \f, \n, \r, \t by
// name, the others as \u00XX), <, > and & as \u003c, \u003e and \u0026 (so
// that the text is safe inside HTML), U+2028 and U+2029 (which JavaScript
// reads as line ends), and each byte of invalid UTF-8 as \ufffd.
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// ErrUnsupported is the error for a NaN or an infinity, which JSON cannot
// write (json.Marshal fails on them too).
var ErrUnsupported = errors.New("jsonout: NaN and infinities have no JSON form")

// Float appends f as json.Marshal writes a float64: the shortest decimal
// that reads back as f, in exponent form below 1e-6 and from 1e21 on, with
// the exponent's leading zero dropped (1e-07 is written 1e-7). A NaN or an
// infinity appends nothing and returns ErrUnsupported.
func Float(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, ErrUnsupported
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
	return b, nil
}

// Writer builds one compact JSON value (no spaces, as json.Marshal writes
// it) a key or an element at a time: Begin and End open and close an
// object or an array, Key names an object's next value, and the value
// methods write one. Commas go where they belong. The first error (a NaN
// or an infinity) sticks and Bytes returns it.
type Writer struct {
	b    []byte
	more bool // a value was written at this level: the next one needs a comma
	err  error
}

func (w *Writer) sep() {
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
}

// Begin opens an object ('{') or an array ('[') as the next value.
func (w *Writer) Begin(open byte) {
	w.sep()
	w.b = append(w.b, open)
	w.more = false
}

// End closes the object ('}') or the array (']') opened last.
func (w *Writer) End(close byte) {
	w.b = append(w.b, close)
	w.more = true
}

// Key writes an object's next key; the next value call writes its value.
func (w *Writer) Key(k string) {
	w.sep()
	w.b = append(String(w.b, k), ':')
	w.more = false
}

// String writes s.
func (w *Writer) String(s string) {
	w.sep()
	w.b = String(w.b, s)
}

// Strings writes ss as an array of strings, or null for a nil slice, as
// json.Marshal writes a []string.
func (w *Writer) Strings(ss []string) {
	if ss == nil {
		w.Null()
		return
	}
	w.Begin('[')
	for _, s := range ss {
		w.String(s)
	}
	w.End(']')
}

// Int writes n.
func (w *Writer) Int(n int64) {
	w.sep()
	w.b = strconv.AppendInt(w.b, n, 10)
}

// Float writes f (see Float); a NaN or an infinity is the Writer's error.
func (w *Writer) Float(f float64) {
	w.sep()
	var err error
	if w.b, err = Float(w.b, f); err != nil && w.err == nil {
		w.err = err
	}
}

// Bool writes true or false.
func (w *Writer) Bool(v bool) {
	w.sep()
	w.b = strconv.AppendBool(w.b, v)
}

// Null writes null.
func (w *Writer) Null() {
	w.sep()
	w.b = append(w.b, "null"...)
}

// Raw writes v, a value already encoded.
func (w *Writer) Raw(v []byte) {
	w.sep()
	w.b = append(w.b, v...)
}

// Map writes m as an object with its keys in ascending order, as
// json.Marshal writes a map[string]any, for values of the kinds the app
// puts in one: bool, string, int, int64, float64 and nil. Any other kind is
// the Writer's error.
func (w *Writer) Map(m map[string]any) {
	if m == nil {
		w.Null()
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.Begin('{')
	for _, k := range keys {
		w.Key(k)
		switch v := m[k].(type) {
		case nil:
			w.Null()
		case bool:
			w.Bool(v)
		case string:
			w.String(v)
		case int:
			w.Int(int64(v))
		case int64:
			w.Int(v)
		case float64:
			w.Float(v)
		default:
			w.Null()
			if w.err == nil {
				w.err = errors.New("jsonout: Map holds a value of a kind it does not write")
			}
		}
	}
	w.End('}')
}

// Bytes returns what was written, or the first error.
func (w *Writer) Bytes() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return w.b, nil
}
