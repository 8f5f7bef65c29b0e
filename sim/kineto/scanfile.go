package kineto

import (
	"errors"
	"fmt"
	"io"
)

// scanFile walks one file with the package's tokenizer (scanner): the
// browser's path, which fills the same rawEvent and top-level structs as
// encoding/json does on the command line (decodeFile), key matching,
// null and duplicate keys included, so both give the same trace
// (TestScanMatchesJSON, FuzzScan).
func scanFile(rd *reader, r io.Reader) error {
	w := &scanWalk{reader: rd, s: newScanner(r, rd.lim)}
	e, a := &w.e, &w.e.Args
	w.eventFields = newTable([]field{{"ph", &e.Ph}, {"cat", &e.Cat}, {"name", &e.Name}, {"pid", &e.Pid}, {"tid", &e.Tid},
		{"ts", &e.Ts}, {"dur", &e.Dur}, {"args", a}}...)
	w.argFields = newTable([]field{{"External id", &a.External}, {"correlation", &a.Correlation}, {"device", &a.Device},
		{"stream", &a.Stream}, {"bytes", &a.Bytes}, {"Collective name", &a.Collective}, {"In msg nelems", &a.InElems},
		{"Out msg nelems", &a.OutElems}, {"Group size", &a.GroupSize}, {"dtype", &a.DType},
		{"Process Group Name", &a.Group}, {"Input Dims", &a.InputDims}, {"Input type", &a.InputType},
		{"name", &a.Name}, {"labels", &a.Labels}, {"paraplay kind", &a.Kind}, {"paraplay microbatch", &a.Microbatch},
		{"paraplay stage", &a.Stage}, {"paraplay iteration", &a.Iteration}, {"paraplay collective", &a.CollIndex},
		{"paraplay op", &a.Op}, {"paraplay algorithm", &a.Algorithm}, {"paraplay protocol", &a.Protocol},
		{"paraplay channels", &a.Channels}, {"paraplay purpose", &a.Purpose}, {"paraplay ranks", &a.Ranks}}...)
	return w.file()
}

// scanWalk walks one file with the scanner. It decodes every event into
// e, through the field tables made once (eventFields, argFields).
type scanWalk struct {
	*reader
	s                      *scanner
	e                      rawEvent
	eventFields, argFields *table
	low                    []byte // scratch for match
}

// field is a key of an object the walk decodes and where its value goes:
// a *string, *number, *anyID, *rawArgs (the event's args), *rawValue,
// *[]int, *int, *int64 or **int, each filled as encoding/json fills that
// type (value).
type field struct {
	key string
	to  any
}

// found is the error of a top-level value of the wrong kind.
func (w *scanWalk) found(why string) error {
	if c := w.s.peek(); c != 0 {
		return w.at(w.s.off(), fmt.Sprintf("found %q: %s", c, why))
	}
	return w.s.syntax("")
}

// file walks the top-level object as jsonWalk.file does.
func (w *scanWalk) file() error {
	s := w.s
	if s.peek() != '{' {
		return w.found("the file must be a JSON object with a traceEvents list")
	}
	seen := false
	err := s.object(func(key []byte) error {
		at := s.off()
		switch string(key) {
		case "traceEvents":
			seen = true
			return w.eventList()
		case "distributedInfo":
			var d distInfo
			fs := newTable(field{"backend", &d.Backend}, field{"rank", &d.Rank}, field{"world_size", &d.WorldSize})
			if err := w.top(at, "distributedInfo", func() error { return w.fields(fs, 1) }); err != nil {
				return err
			}
			return w.setDistributed(&d, at)
		case "deviceProperties":
			var ds []deviceProps
			if err := w.top(at, "deviceProperties", func() error { return w.devices(&ds) }); err != nil {
				return err
			}
			return w.setDevices(ds, at)
		case metaKey:
			m := &Meta{}
			fs := newTable(field{"title", &m.Title}, field{"fidelity", &m.Fidelity}, field{"gpu", &m.GPU},
				field{"name", &m.Name}, field{"node", &m.Node}, field{"role", &m.Role})
			if err := w.top(at, metaKey, func() error { return w.fields(fs, 1) }); err != nil {
				return err
			}
			return w.setMeta(m, at)
		}
		return s.skip(0, false)
	})
	if err != nil {
		return err
	}
	if s.peek() != 0 || s.err != io.EOF {
		if s.pos == len(s.buf) && s.err != io.EOF {
			return s.syntax("")
		}
		return w.at(s.off(), "data after the end of the top-level object")
	}
	if !seen {
		return w.at(s.off(), "no traceEvents list: not a Chrome trace")
	}
	return nil
}

// top decodes one top-level value with dec, naming key in a type error
// and holding the value to Limits.MaxValue.
func (w *scanWalk) top(at int64, key string, dec func() error) error {
	err := dec()
	var te *typeError
	if errors.As(err, &te) {
		return w.at(at, fmt.Sprintf("%s: %s is %s, which it cannot be", key, te.where(), te))
	}
	if err == nil && w.s.off()-at > w.lim.MaxValue {
		return w.s.tooLarge(at)
	}
	return err
}

// eventList reads traceEvents one event at a time.
func (w *scanWalk) eventList() error {
	s := w.s
	if s.peek() != '[' {
		return w.found("traceEvents must be a list")
	}
	at := s.off() + 1
	return s.array(func() error {
		w.e = rawEvent{}
		err := w.fields(w.eventFields, 1)
		var te *typeError
		var le *limitError
		switch {
		case errors.As(err, &te):
			return w.at(at, fmt.Sprintf("event %d: %s is %s, which it cannot be", w.events, te.where(), te))
		case errors.As(err, &le):
			return err
		case err != nil:
			return w.at(at, fmt.Sprintf("event %d: %v", w.events, err))
		case s.off()-at > w.lim.MaxValue:
			return s.tooLarge(at)
		}
		if err := w.event(&w.e, at); err != nil {
			return err
		}
		w.events++
		at = s.off()
		return nil
	})
}

// fields fills fs from the object next (null leaves them as they were);
// depth is the nesting of that object. Keys match as in encoding/json:
// exactly, else ignoring case; others are skipped.
func (w *scanWalk) fields(fs *table, depth int) error {
	s := w.s
	if ok, err := s.opens('{'); !ok {
		return err
	}
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for { // object's loop, without a closure to allocate per event
		if err := s.key(); err != nil {
			return err
		}
		var err error
		if i := fs.match(s.tok, &w.low); i < 0 {
			err = s.skip(depth, true)
		} else {
			err = named(fs.fs[i].key, w.value(fs.fs[i].to, depth))
		}
		if err != nil {
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

// value fills to from the value next, as encoding/json fills its type, in
// an object at depth.
func (w *scanWalk) value(to any, depth int) error {
	s := w.s
	switch v := to.(type) {
	case *string:
		return s.string(v)
	case *number:
		return w.number(v)
	case *anyID:
		return w.id(v)
	case *rawArgs:
		return w.fields(w.argFields, depth+1)
	case *rawValue:
		if !analysisInputs {
			return s.skip(depth, true)
		}
		raw, err := s.record(depth)
		*v = raw
		return err
	case *[]int:
		return w.ints(v)
	case *int:
		return intField(s, v)
	case *int64:
		return s.integer(v)
	case **int:
		if s.peek() == 'n' {
			*v = nil
			return s.lit()
		}
		var n int64
		if err := s.integer(&n); err != nil {
			return err
		}
		r := int(n)
		*v = &r
		return nil
	}
	return s.skip(depth, true)
}

// number fills a number field as encoding/json fills a json.Number: a
// number, or a string holding one; null leaves it as it was.
func (w *scanWalk) number(v *number) error {
	s := w.s
	switch c := s.peek(); {
	case c == 'n':
		return s.lit()
	case c == '"':
		if err := s.str(); err != nil {
			return err
		}
		if !validNumber(s.tok) {
			return fmt.Errorf("invalid number literal %q", s.tok)
		}
	case c == '-' || c >= '0' && c <= '9':
		if err := s.num(); err != nil {
			return err
		}
	default:
		return s.typeError(c)
	}
	*v = number(s.tok)
	return nil
}

// id fills a pid or tid as anyID.UnmarshalJSON does: a whole number; a
// string or null leaves it as it was.
func (w *scanWalk) id(v *anyID) error {
	s := w.s
	switch c := s.peek(); {
	case c == 'n':
		return s.lit()
	case c == '"':
		return s.str()
	case c != '-' && (c < '0' || c > '9'):
		if c == 't' || c == 'f' {
			return fmt.Errorf("kineto: id %s is not a whole number", kind(c))
		}
		return s.typeError(c)
	}
	if err := s.num(); err != nil {
		return err
	}
	n, err := integer(string(s.tok))
	if err != nil {
		return fmt.Errorf("kineto: id %s is not a whole number", s.tok)
	}
	v.num, v.isNum = n, true
	return nil
}

// ints fills a []int as encoding/json does: it reuses the slice's storage
// (an element that is null keeps what was there), and null empties it.
func (w *scanWalk) ints(v *[]int) error {
	s := w.s
	if ok, err := s.opens('['); !ok {
		*v = nil // null empties it; on an error the trace is lost anyway
		return err
	}
	out := (*v)[:0]
	err := s.array(func() error {
		if len(out) < cap(out) {
			out = out[:len(out)+1]
		} else {
			out = append(out, 0)
		}
		n := int64(out[len(out)-1])
		err := s.integer(&n)
		out[len(out)-1] = int(n)
		return err
	})
	if len(out) == 0 {
		out = []int{}
	}
	*v = out
	return err
}

// intField fills an int as encoding/json does.
func intField(s *scanner, v *int) error {
	n := int64(*v)
	err := s.integer(&n)
	*v = int(n)
	return err
}

// devices decodes deviceProperties into ds.
func (w *scanWalk) devices(ds *[]deviceProps) error {
	s := w.s
	if ok, err := s.opens('['); !ok {
		*ds = nil
		return err
	}
	*ds = []deviceProps{}
	return s.array(func() error {
		*ds = append(*ds, deviceProps{})
		d := &(*ds)[len(*ds)-1]
		return w.fields(newTable(field{"id", &d.ID}, field{"name", &d.Name}, field{"totalGlobalMem", &d.Memory},
			field{"numSms", &d.SMs}, field{"computeMajor", &d.ComputeMajor}, field{"computeMinor", &d.ComputeMinor}), 2)
	})
}

// scanDims reads a GEMM operator's Input Dims as decodeDims does with
// encoding/json: false unless raw is a list of lists of whole numbers
// (null counts as empty).
func scanDims(raw []byte) ([][]int64, bool) {
	s := newScanner(bytesReader(raw), Limits{MaxBytes: 1 << 40, MaxValue: 1 << 40, MaxEvents: 1})
	var dims [][]int64
	list, err := listOf(s, func() error {
		var row []int64
		list, err := listOf(s, func() error {
			var n int64
			err := s.integer(&n)
			row = append(row, n)
			return err
		})
		if list && row == nil {
			row = []int64{}
		}
		dims = append(dims, row)
		return err
	})
	if list && dims == nil {
		dims = [][]int64{}
	}
	return dims, err == nil && s.atEnd()
}

// scanTypes reads a GEMM operator's Input type as decodeTypes does with
// encoding/json: as far as it is a list of strings (another element
// reads as "").
func scanTypes(raw []byte) []string {
	s := newScanner(bytesReader(raw), Limits{MaxBytes: 1 << 40, MaxValue: 1 << 40, MaxEvents: 1})
	var types []string
	list, err := listOf(s, func() error {
		var v string
		err := s.string(&v)
		var te *typeError
		if errors.As(err, &te) { // encoding/json goes on past a type error
			err = s.skip(1, true)
		}
		types = append(types, v)
		return err
	})
	if err != nil || !s.atEnd() {
		return nil
	}
	if list && types == nil {
		types = []string{}
	}
	return types
}

// listOf reads a list, calling elem for each element, or null; another
// value is an error. It reports whether it read a list.
func listOf(s *scanner, elem func() error) (bool, error) {
	if ok, err := s.opens('['); !ok {
		return false, err
	}
	return true, s.array(elem)
}

// opens reports whether the value next starts with open ('[' or '{'),
// reading nothing; null it reads, reporting false; another value is a
// type error. It is the prologue of every "null or a list/object" field.
func (s *scanner) opens(open byte) (bool, error) {
	switch c := s.peek(); c {
	case open:
		return true, nil
	case 'n':
		return false, s.lit()
	default:
		return false, s.typeError(c)
	}
}

// atEnd reports whether only whitespace is left.
func (s *scanner) atEnd() bool { return s.peek() == 0 && s.err == io.EOF }

// bytesReader reads b.
func bytesReader(b []byte) io.Reader { return &sliceReader{b} }

type sliceReader struct{ b []byte }

func (r *sliceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}
