package kineto

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// The scanner's strings and numbers: JSON's lexical grammar, and strings
// unescaped as encoding/json unescapes them.

// str reads the string that starts at the next byte into tok, unescaped.
func (s *scanner) str() error {
	at := s.off()
	s.pos++ // the opening quote, peeked
	s.tok = s.tok[:0]
	high := false // a byte past ASCII: check the UTF-8 at the end
	var pend rune // a high surrogate waiting for its low half
	for {
		i := s.pos
		for i < len(s.buf) {
			c := s.buf[i]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			high = high || c >= utf8.RuneSelf
			i++
		}
		if i > s.pos && pend != 0 {
			s.tok, pend = utf8.AppendRune(s.tok, utf8.RuneError), 0
		}
		s.tok = append(s.tok, s.buf[s.pos:i]...)
		s.pos = i
		if int64(len(s.tok)) > s.lim.MaxValue {
			return s.tooLarge(at)
		}
		c, ok := s.raw()
		switch {
		case !ok:
			return s.syntax("in string")
		case c < 0x20:
			return s.syntax("in string literal")
		case c == '"':
			s.pos++
			if pend != 0 {
				s.tok = utf8.AppendRune(s.tok, utf8.RuneError)
			}
			if high && !utf8.Valid(s.tok) {
				s.tok = fixUTF8(s.tok)
			}
			return nil
		case c == '\\':
			s.pos++
			var err error
			if pend, err = s.escape(pend); err != nil {
				return err
			}
		}
	}
}

// escape reads one escape after its backslash into tok; pend is a high
// surrogate read just before, which a low one completes (else U+FFFD, as
// encoding/json writes). It returns the new pending surrogate.
func (s *scanner) escape(pend rune) (rune, error) {
	c, ok := s.raw()
	if !ok {
		return 0, s.syntax("in string escape code")
	}
	if c != 'u' {
		i := bytes.IndexByte([]byte(`"\/bfnrt`), c)
		if i < 0 {
			return 0, s.syntax("in string escape code")
		}
		s.pos++
		if pend != 0 {
			s.tok = utf8.AppendRune(s.tok, utf8.RuneError)
		}
		s.tok = append(s.tok, "\"\\/\b\f\n\r\t"[i])
		return 0, nil
	}
	s.pos++
	var r rune
	for range 4 {
		c, ok := s.raw()
		h := rune(bytes.IndexByte([]byte("0123456789abcdef"), c|0x20))
		if !ok || h < 0 || c < '0' {
			return 0, s.syntax("in \\u hexadecimal character escape")
		}
		s.pos++
		r = r<<4 | h
	}
	switch {
	case pend != 0 && r >= 0xDC00 && r < 0xE000:
		s.tok = utf8.AppendRune(s.tok, 0x10000+(pend-0xD800)<<10+(r-0xDC00))
		return 0, nil
	case pend != 0:
		s.tok = utf8.AppendRune(s.tok, utf8.RuneError)
	}
	switch {
	case r >= 0xD800 && r < 0xDC00:
		return r, nil
	case r >= 0xDC00 && r < 0xE000:
		r = utf8.RuneError
	}
	s.tok = utf8.AppendRune(s.tok, r)
	return 0, nil
}

// fixUTF8 replaces each byte of b that is not part of a UTF-8 sequence
// with U+FFFD, as encoding/json does.
func fixUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, r)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// num reads the number that starts at the next byte into tok.
func (s *scanner) num() error {
	at := s.off()
	s.tok = s.tok[:0]
	for {
		i := s.pos
		for i < len(s.buf) {
			c := s.buf[i]
			if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
				break
			}
			i++
		}
		s.tok = append(s.tok, s.buf[s.pos:i]...)
		s.pos = i
		if int64(len(s.tok)) > s.lim.MaxValue {
			return s.tooLarge(at)
		}
		if i < len(s.buf) || !s.fill() {
			break
		}
	}
	if !validNumber(s.tok) {
		return &limitError{at, fmt.Sprintf("malformed JSON: invalid number %q", s.tok)}
	}
	return nil
}

// validNumber reports whether b is a JSON number: -?(0|[1-9][0-9]*)
// (\.[0-9]+)?([eE][+-]?[0-9]+)?.
func validNumber(b []byte) bool {
	digits := func() bool {
		n := 0
		for len(b) > 0 && b[0] >= '0' && b[0] <= '9' {
			b, n = b[1:], n+1
		}
		return n > 0
	}
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	switch {
	case len(b) > 0 && b[0] == '0':
		b = b[1:]
	case !digits():
		return false
	}
	if len(b) > 0 && b[0] == '.' {
		b = b[1:]
		if !digits() {
			return false
		}
	}
	if len(b) > 0 && (b[0] == 'e' || b[0] == 'E') {
		b = b[1:]
		if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
			b = b[1:]
		}
		if !digits() {
			return false
		}
	}
	return len(b) == 0
}
