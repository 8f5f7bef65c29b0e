package jsonout

import (
	"encoding/json"
	"math"
	"testing"
)

var strs = []string{"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnewline\nreturn\r",
	"\b\f\x00\x01\x1f\x7f", "µs · ×2 → GPU 7", "line\u2028para\u2029end", "bad \xff utf-8 \xc3", "\xed\xa0\x80",
	"emoji 🙂", "ends in \\"}

func TestString(t *testing.T) {
	for _, s := range strs {
		checkString(t, s)
	}
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := String(nil, s); string(got) != string(want) {
		t.Errorf("String(%q) = %s, want %s (encoding/json)", s, got, want)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range strs {
		f.Add(s)
	}
	f.Fuzz(checkString)
}

var floats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1.0 / 3, 123456789, 1e20, 1e21, 1.5e21, 1e-6, 9.99e-7,
	1e-7, -2.5e-9, 5e-324, math.MaxFloat64, -math.MaxFloat64, 1e100, 66.2e9, 0.000123}

func TestFloat(t *testing.T) {
	for _, f := range floats {
		checkFloat(t, f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got, err := Float([]byte("x"), f); err != ErrUnsupported || string(got) != "x" {
			t.Errorf("Float(%v) = %q, %v; want nothing appended and ErrUnsupported", f, got, err)
		}
		if _, err := json.Marshal(f); err == nil {
			t.Errorf("encoding/json writes %v; the test's premise is that it fails", f)
		}
	}
}

func checkFloat(t *testing.T, f float64) {
	t.Helper()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	want, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Float(nil, f)
	if err != nil || string(got) != string(want) {
		t.Errorf("Float(%v) = %s, %v; want %s (encoding/json)", f, got, err, want)
	}
}

func FuzzFloat(f *testing.F) {
	for _, x := range floats {
		f.Add(x)
	}
	f.Fuzz(checkFloat)
}

// record is a value with every kind the Writer writes, and its
// encoding/json tags.
type record struct {
	OK     bool            `json:"ok"`
	Name   string          `json:"name"`
	N      int             `json:"n"`
	X      float64         `json:"x"`
	Nil    []string        `json:"nil"`
	Empty  []string        `json:"empty"`
	List   []string        `json:"list"`
	Raw    json.RawMessage `json:"raw"`
	Nested []inner         `json:"nested"`
	Map    map[string]any  `json:"map"`
	NoMap  map[string]any  `json:"nomap"`
}

type inner struct {
	A string `json:"a"`
}

func TestWriter(t *testing.T) {
	r := record{OK: true, Name: "a <b>", N: -3, X: 2.5e-7, Empty: []string{}, List: []string{"x", "y\n"},
		Raw: json.RawMessage(`{"k":[1,2]}`), Nested: []inner{{"1"}, {"2"}},
		Map: map[string]any{"b": 1, "a": true, "Z": "z", "bestX": 1.5, "bestID": "plan/3", "nil": nil, "i64": int64(-7)}}
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var w Writer
	w.Begin('{')
	w.Key("ok")
	w.Bool(r.OK)
	w.Key("name")
	w.String(r.Name)
	w.Key("n")
	w.Int(int64(r.N))
	w.Key("x")
	w.Float(r.X)
	w.Key("nil")
	w.Strings(r.Nil)
	w.Key("empty")
	w.Strings(r.Empty)
	w.Key("list")
	w.Strings(r.List)
	w.Key("raw")
	w.Raw(r.Raw)
	w.Key("nested")
	w.Begin('[')
	for _, in := range r.Nested {
		w.Begin('{')
		w.Key("a")
		w.String(in.A)
		w.End('}')
	}
	w.End(']')
	w.Key("map")
	w.Map(r.Map)
	w.Key("nomap")
	w.Map(r.NoMap)
	w.End('}')
	got, err := w.Bytes()
	if err != nil || string(got) != string(want) {
		t.Errorf("Writer wrote\n%s (%v)\nwant (encoding/json)\n%s", got, err, want)
	}
}

func TestWriterErrors(t *testing.T) {
	for name, write := range map[string]func(w *Writer){
		"NaN":        func(w *Writer) { w.Float(math.NaN()) },
		"Inf in map": func(w *Writer) { w.Map(map[string]any{"x": math.Inf(1)}) },
		"odd kind":   func(w *Writer) { w.Map(map[string]any{"x": []int{1}}) },
	} {
		var w Writer
		write(&w)
		if b, err := w.Bytes(); err == nil || b != nil {
			t.Errorf("%s: Bytes() = %q, %v; want nil and an error", name, b, err)
		}
	}
}
