package kineto

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth is the deepest nesting a decoded value may have, as in
// encoding/json (its scanner's maxNestingDepth).
const maxDepth = 10000

// scanner is the package's own streaming JSON tokenizer, for the browser
// build, which carries no encoding/json (scanFile). It reads r through one
// 64 KiB window and keeps only the string or number it last read (tok),
// at most Limits.MaxValue bytes, so a file of any size costs that much
// memory. It accepts exactly the JSON that encoding/json accepts (RFC
// 8259: no trailing commas, no leading zeros, the four whitespace bytes)
// and unescapes strings as encoding/json does: a lone surrogate or a byte
// that is not UTF-8 becomes U+FFFD.
type scanner struct {
	r    io.Reader
	lim  Limits
	win  []byte // the window's storage
	buf  []byte // the bytes read into the window
	pos  int    // the next unread byte of buf
	base int64  // the file offset of buf[0]
	err  error  // why no more bytes come (io.EOF at the end), once buf is drained
	tok  []byte // the last string (unescaped) or number read
	// rec, while recording, gathers the raw bytes consumed from recFrom on
	// (a value kept whole: a GEMM's Input Dims).
	rec       []byte
	recording bool
	recFrom   int
}

func newScanner(r io.Reader, lim Limits) *scanner {
	return &scanner{r: r, lim: lim, win: make([]byte, 64<<10)}
}

// off is the byte offset of the next unread byte.
func (s *scanner) off() int64 { return s.base + int64(s.pos) }

// fill reads the next bytes into the window once buf is drained; false at
// the end of the input or on an error, which s.err keeps.
func (s *scanner) fill() bool {
	if s.err != nil {
		return false
	}
	if s.recording {
		s.rec = append(s.rec, s.buf[s.recFrom:s.pos]...)
		s.recFrom = 0
	}
	s.base += int64(len(s.buf))
	s.buf, s.pos = s.win[:0], 0
	if s.base >= s.lim.MaxBytes {
		s.err = &limitError{s.base, fmt.Sprintf("the file is larger than the %d bytes allowed (kineto.Limits.MaxBytes)", s.lim.MaxBytes)}
		return false
	}
	for range 100 {
		n, err := s.r.Read(s.win[:min(int64(len(s.win)), s.lim.MaxBytes-s.base)])
		if n > 0 {
			s.buf = s.win[:n]
			return true
		}
		if err != nil {
			s.err = err
			return false
		}
	}
	s.err = io.ErrNoProgress
	return false
}

// peek skips whitespace and returns the next byte without consuming it: 0
// at the end of the input (s.err says why) or at a NUL byte, which no JSON
// holds outside a string.
func (s *scanner) peek() byte {
	for {
		for s.pos < len(s.buf) {
			c := s.buf[s.pos]
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return c
			}
			s.pos++
		}
		if !s.fill() {
			return 0
		}
	}
}

// raw returns the next byte without skipping whitespace; false at the end.
func (s *scanner) raw() (byte, bool) {
	if s.pos == len(s.buf) && !s.fill() {
		return 0, false
	}
	return s.buf[s.pos], true
}

// syntax is the error at the next byte: the input's end or read error,
// else malformed JSON, what saying what was expected.
func (s *scanner) syntax(what string) error {
	if s.pos == len(s.buf) && s.err != nil {
		switch e := s.err.(type) {
		case *limitError:
			return e
		}
		if s.err == io.EOF || s.err == io.ErrUnexpectedEOF {
			return &limitError{s.off(), "the file ends in the middle of the JSON (truncated?)"}
		}
		return fmt.Errorf("byte %d: %w", s.off(), s.err)
	}
	return &limitError{s.off(), fmt.Sprintf("malformed JSON: invalid character %q %s", s.buf[s.pos], what)}
}

// tooLarge is the error of a value over Limits.MaxValue that began at at.
func (s *scanner) tooLarge(at int64) error {
	return &limitError{at, fmt.Sprintf("one JSON value is larger than the %d bytes allowed (kineto.Limits.MaxValue)", s.lim.MaxValue)}
}

// expect consumes the byte c after any whitespace.
func (s *scanner) expect(c byte, what string) error {
	if s.peek() != c {
		return s.syntax(what)
	}
	s.pos++
	return nil
}

// lit reads true, false or null, whichever starts at the next byte.
func (s *scanner) lit() error {
	word := "null"
	switch c, _ := s.raw(); c {
	case 't':
		word = "true"
	case 'f':
		word = "false"
	}
	for i := range len(word) {
		if c, ok := s.raw(); !ok || c != word[i] {
			return s.syntax("in literal " + word)
		}
		s.pos++
	}
	return nil
}

// scalar reads a string, number or literal.
func (s *scanner) scalar() error {
	switch c := s.peek(); {
	case c == '"':
		return s.str()
	case c == '-' || c >= '0' && c <= '9':
		return s.num()
	case c == 't' || c == 'f' || c == 'n':
		return s.lit()
	}
	return s.syntax("looking for beginning of value")
}

// kind names the JSON type of the value starting with c, for messages.
func kind(c byte) string {
	switch {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "bool"
	}
	return "number"
}

// skip reads and drops one value of any size, keeping only its nesting;
// depth is the nesting the value sits in, held to maxDepth when limited
// (encoding/json's Decode) and free otherwise (its Token, which the
// command line skips top-level keys with).
func (s *scanner) skip(depth int, limited bool) error {
	var open []byte // the closers of the containers open
	for {
		switch c := s.peek(); c {
		case '{', '[':
			s.pos++
			if limited && depth+len(open) >= maxDepth {
				return &limitError{s.off() - 1, fmt.Sprintf("malformed JSON: exceeded max depth of %d", maxDepth)}
			}
			open = append(open, c+2) // '}' and ']'
			if s.peek() == c+2 {
				s.pos++
				open = open[:len(open)-1]
				break
			}
			if c == '{' {
				if err := s.key(); err != nil {
					return err
				}
			}
			continue
		default:
			if err := s.scalar(); err != nil {
				return err
			}
		}
		for {
			if len(open) == 0 {
				return nil
			}
			closer := open[len(open)-1]
			c := s.peek()
			if c == closer {
				s.pos++
				open = open[:len(open)-1]
				continue
			}
			if c != ',' {
				return s.syntax("after array element or object value")
			}
			s.pos++
			if closer == '}' {
				if err := s.key(); err != nil {
					return err
				}
			}
			break
		}
	}
}

// key reads an object's key and its colon.
func (s *scanner) key() error {
	if s.peek() != '"' {
		return s.syntax("looking for beginning of object key string")
	}
	if err := s.str(); err != nil {
		return err
	}
	return s.expect(':', "after object key")
}

// object reads an object whose '{' is next, calling field for each key
// (in tok) with the scanner at its value, which field must consume.
func (s *scanner) object(field func(key []byte) error) error {
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		if err := s.key(); err != nil {
			return err
		}
		if err := field(s.tok); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.syntax("after object key:value pair")
		}
	}
}

// array reads an array whose '[' is next, calling elem with the scanner at
// each element, which elem must consume.
func (s *scanner) array(elem func() error) error {
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.syntax("after array element")
		}
	}
}

// record reads one value (limited nesting from depth) and returns its raw
// bytes.
func (s *scanner) record(depth int) ([]byte, error) {
	s.peek()
	s.recording, s.rec, s.recFrom = true, nil, s.pos
	err := s.skip(depth, true)
	s.rec = append(s.rec, s.buf[s.recFrom:s.pos]...)
	s.recording = false
	return s.rec, err
}

// integer reads a whole number into an int64 as encoding/json fills an
// int: a number literal within int64; null leaves v as it was.
func (s *scanner) integer(v *int64) error {
	switch c := s.peek(); {
	case c == 'n':
		return s.lit()
	case c != '-' && (c < '0' || c > '9'):
		return s.typeError(c)
	}
	if err := s.num(); err != nil {
		return err
	}
	n, err := strconv.ParseInt(string(s.tok), 10, 64)
	if err != nil {
		return &typeError{value: "number " + string(s.tok)}
	}
	*v = n
	return nil
}

// str fills a string as encoding/json does: null leaves it as it was.
func (s *scanner) string(v *string) error {
	switch c := s.peek(); c {
	case 'n':
		return s.lit()
	case '"':
		if err := s.str(); err != nil {
			return err
		}
		*v = string(s.tok)
		return nil
	default:
		return s.typeError(c)
	}
}

// typeError is a value of a JSON type its field cannot hold.
type typeError struct{ value, field string }

func (e *typeError) Error() string { return "a JSON " + e.value }

// where names the field, as encoding/json's UnmarshalTypeError does.
func (e *typeError) where() string {
	if e.field == "" {
		return "the event"
	}
	return fmt.Sprintf("field %q", e.field)
}

// named prefixes the field of a type error from a field named name.
func named(name string, err error) error {
	if te, ok := err.(*typeError); ok {
		te.field = name + strings.TrimSuffix("."+te.field, ".")
	}
	return err
}

func (s *scanner) typeError(c byte) error {
	if !(c == '"' || c == '{' || c == '[' || c == 't' || c == 'f' || c == 'n' || c == '-' || c >= '0' && c <= '9') {
		return s.syntax("looking for beginning of value")
	}
	return &typeError{value: kind(c)}
}

// table is the fields of one struct with their keys indexed: exactly,
// and lower-cased for keys that differ only in ASCII case.
type table struct {
	fs            []field
	exact, folded map[string]int
}

func newTable(fs ...field) *table {
	t := &table{fs: fs, exact: map[string]int{}, folded: map[string]int{}}
	for i, f := range fs {
		t.exact[f.key] = i
		t.folded[strings.ToLower(f.key)] = i
	}
	return t
}

// match is the index of the field key names, exactly or else ignoring
// case as encoding/json matches struct fields, or -1; low is scratch.
func (t *table) match(key []byte, low *[]byte) int {
	if i, ok := t.exact[string(key)]; ok {
		return i
	}
	*low = (*low)[:0]
	for _, c := range key {
		if c >= utf8.RuneSelf { // a Kelvin sign folds onto k: compare rune by rune
			for i := range t.fs {
				if bytes.EqualFold(key, []byte(t.fs[i].key)) {
					return i
				}
			}
			return -1
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		*low = append(*low, c)
	}
	if i, ok := t.folded[string(*low)]; ok {
		return i
	}
	return -1
}
