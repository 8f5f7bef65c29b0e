package timeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"paraplay/sim/units"
)

// wholeTrace is the trace as it was written before it streamed: every
// event in memory, one json.Encoder call. The streaming writer must give
// the same bytes.
func wholeTrace(tl *Timeline) []byte {
	type event struct {
		Name string         `json:"name"`
		Cat  string         `json:"cat,omitempty"`
		Ph   string         `json:"ph"`
		Ts   float64        `json:"ts"`
		Dur  float64        `json:"dur,omitempty"`
		Pid  int            `json:"pid"`
		Tid  int            `json:"tid"`
		Args map[string]any `json:"args,omitempty"`
	}
	var f struct {
		TraceEvents     []event           `json:"traceEvents"`
		DisplayTimeUnit string            `json:"displayTimeUnit"`
		OtherData       map[string]string `json:"otherData"`
	}
	f.DisplayTimeUnit = "ns"
	f.OtherData = map[string]string{"title": tl.Title, "fidelity": tl.Fidelity, "generator": "ParaPlay"}
	tl.traceEvents(func(e traceEvent) {
		args := map[string]any{}
		for _, a := range e.Args {
			switch a.Kind {
			case argInt:
				args[a.Key] = a.Int
			case argFloat:
				args[a.Key] = a.Num
			case argString:
				args[a.Key] = a.Str
			case argInts:
				args[a.Key] = a.Ints
			}
		}
		f.TraceEvents = append(f.TraceEvents, event{e.Name, e.Cat, e.Ph, e.Ts, e.Dur, e.Pid, e.Tid, args})
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// awkward is a timeline whose strings need every kind of escape and
// whose times need every form of number.
func awkward() *Timeline {
	tl := small()
	tl.Title = `<a href="x">&` + "\u2028\u2029\x01\t\n\b\f\\\xff é"
	tl.Fidelity = ""
	tl.GPUs[1].Name = "GPU <1> & \"one\""
	tl.Spans[0].Label = "F0\x7f\u00a0"
	tl.Spans[1].End = 1           // 0.001 µs
	tl.Spans[2].Start = 1<<62 - 3 // 4.6e12 µs: large, still plain decimals
	tl.Spans[2].End = 1<<62 - 1
	tl.Spans[3].Microbatch = -7
	tl.Spans[3].Iteration, tl.Spans[3].Stage = 2, 3
	xs := transfersOf(tl)
	xs[0].Path = nil
	xs[1].Path = []int{}
	tl.Transfers = TransfersOf(append(xs, Transfer{Path: []int{1, 0, 1}, Src: 1, Dst: 0, Bytes: 1 << 40, Collective: -1, Step: 3, Start: 7, End: 9})...)
	tl.Collectives[0].Algorithm = "ring & <tree>"
	tl.States = []State{
		{GPU: 0, State: "down", Start: 0, End: 1},
		{GPU: 1, State: "slow", Factor: 1e-9, Start: 1, End: 2},
		{GPU: 1, State: "slow", Factor: 3e21, Start: 2, End: 3},
		{GPU: 9, State: "ignored", Start: 2, End: 3},
	}
	return tl
}

func TestChromeTraceStreamsTheSameBytes(t *testing.T) {
	tests := []struct {
		name string
		tl   *Timeline
	}{
		{"small", small()},
		{"awkward", awkward()},
		{"empty", &Timeline{Title: "nothing"}},
		{"no spans", &Timeline{GPUs: []GPU{{ID: 0, Name: "GPU 0"}}}},
	}
	for _, tt := range tests {
		var got bytes.Buffer
		if err := tt.tl.WriteChromeTrace(&got); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if want := wholeTrace(tt.tl); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: streamed trace differs from encoding/json's:\ngot:\n%s\nwant:\n%s", tt.name, got.Bytes(), want)
		}
	}
}

func TestNumbersAsEncodingJSON(t *testing.T) {
	var tw traceWriter
	for _, f := range []float64{0, 1, -1, 0.001, 1e-6, 9.99e-7, 1e-7, 1.5e-10, 1e20, 1e21, 1.234e25, -3e-9,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789.123, 4.611686018427388e+15} {
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := tw.number(nil, f); string(got) != string(want) {
			t.Errorf("number(%v) = %s, want %s", f, got, want)
		}
	}
	tw.number(nil, math.NaN())
	if tw.err == nil {
		t.Error("NaN wrote no error; encoding/json refuses it")
	}
}

// failingWriter accepts n bytes, then fails as a full disk does.
type failingWriter struct{ n int }

var errDiskFull = errors.New("no space left on device")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestChromeTraceReportsAFailingWriter(t *testing.T) {
	tl := small()
	for range 14 { // a trace larger than the writer's buffer
		tl.Spans = append(tl.Spans, tl.Spans...)
	}
	for _, n := range []int{0, 100, 1 << 16, 1 << 20} {
		err := tl.WriteChromeTrace(&failingWriter{n: n})
		if !errors.Is(err, errDiskFull) {
			t.Errorf("writer failing after %d bytes: got %v, want %v", n, err, errDiskFull)
		}
	}
}

func TestChromeTraceNamesTheTransfer(t *testing.T) {
	var buf bytes.Buffer
	if err := small().WriteChromeTrace(&buf); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), `"name": "send chunk 1 → GPU 0"`; !strings.Contains(got, want) {
		t.Errorf("trace lacks %s", want)
	}
}

func TestTimelineJSONStreamsTheSameBytes(t *testing.T) {
	withStates := awkward()
	withStates.Memory = []Memory{{GPU: 0, Capacity: 80 << 30, Activations: []MemoryPoint{{At: 0, Bytes: 1}, {At: 5, Bytes: 0}}}}
	withStates.Training = &Training{Tokens: 4096, Schedule: "1f1b", Warnings: []string{"<tp> & more"}}
	for _, tl := range []*Timeline{small(), withStates, {}, {Spans: []Span{}, Title: "x"}} {
		var got, want bytes.Buffer
		if err := WriteJSON(tl, &got); err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(&want)
		enc.SetIndent("", " ")
		if err := enc.Encode(tl); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%q: streamed timeline differs from encoding/json's:\ngot:\n%s\nwant:\n%s", tl.Title, got.Bytes(), want.Bytes())
		}
	}
}

func TestTimelineJSONReportsAFailingWriter(t *testing.T) {
	tl := small()
	for range 12 {
		tl.Spans = append(tl.Spans, tl.Spans...)
	}
	for _, n := range []int{0, 100, 1 << 16} {
		if err := WriteJSON(tl, &failingWriter{n: n}); !errors.Is(err, errDiskFull) {
			t.Errorf("writer failing after %d bytes: got %v, want %v", n, err, errDiskFull)
		}
	}
}

// bigTimeline is n spans on 64 GPUs: enough for the writers' memory per
// span to show in -benchmem.
func bigTimeline(n int) *Timeline {
	tl := &Timeline{Title: "big", Fidelity: "analytic"}
	for g := range 64 {
		tl.GPUs = append(tl.GPUs, GPU{ID: g, Name: "GPU " + strconv.Itoa(g)})
	}
	labels := []string{"F0", "F1", "B0", "B1"}
	for i := range n {
		t := units.Time(i / 64 * 1000)
		tl.Spans = append(tl.Spans, Span{GPU: i % 64, Kind: Forward, Microbatch: i % 16, Label: labels[i%4], Start: t, End: t + 999})
	}
	return tl
}

// BenchmarkWriteChromeTrace: the streamed trace allocates a fixed few
// kilobytes whatever the number of spans (compare B/op with the file's
// size, SetBytes).
func BenchmarkWriteChromeTrace(b *testing.B) {
	tl := bigTimeline(200_000)
	var size countingDiscard
	tl.WriteChromeTrace(&size)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if err := tl.WriteChromeTrace(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteJSON: the streamed timeline JSON, element by element.
func BenchmarkWriteJSON(b *testing.B) {
	tl := bigTimeline(200_000)
	var size countingDiscard
	WriteJSON(tl, &size)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteJSON(tl, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

type countingDiscard int

func (c *countingDiscard) Write(p []byte) (int, error) {
	*c += countingDiscard(len(p))
	return len(p), nil
}

// FuzzStreamedBytes: for any strings and times, the streamed trace and
// timeline JSON are the bytes encoding/json gives (or both refuse).
func FuzzStreamedBytes(f *testing.F) {
	f.Add("two GPUs", "F0", "GPU <1>", int64(0), int64(1), 0.5, 3)
	f.Add("\u2028&\xff", "\x00\t", "", int64(1<<62), int64(-5), 1e-300, -1)
	f.Fuzz(func(t *testing.T, title, label, name string, start, dur int64, factor float64, iteration int) {
		tl := small()
		tl.Title, tl.GPUs[1].Name = title, name
		tl.Spans[1].Label, tl.Spans[1].Kind, tl.Spans[1].Iteration = label, Kind(label), iteration
		tl.Spans[2].Start, tl.Spans[2].End = units.Time(start), units.Time(start+dur)
		xs := transfersOf(tl)
		xs[0].Phase = label
		tl.Transfers = TransfersOf(xs...)
		tl.States = []State{{GPU: 1, State: name, Factor: factor, Start: units.Time(dur), End: units.Time(start)}}
		var got bytes.Buffer
		err := tl.WriteChromeTrace(&got)
		if math.IsNaN(factor) || math.IsInf(factor, 0) {
			if err == nil {
				t.Errorf("factor %v: trace written, want an error", factor)
			}
		} else if err != nil {
			t.Fatal(err)
		} else if want := wholeTrace(tl); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("streamed trace differs from encoding/json's:\ngot:\n%s\nwant:\n%s", got.Bytes(), want)
		}
		got.Reset()
		err = WriteJSON(tl, &got)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", " ")
		werr := enc.Encode(tl)
		if (err != nil) != (werr != nil) {
			t.Fatalf("WriteJSON error %v, encoding/json's %v", err, werr)
		}
		if err == nil && !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("streamed timeline differs from encoding/json's:\ngot:\n%s\nwant:\n%s", got.Bytes(), want.Bytes())
		}
	})
}

// TestWritersAllocateAFixedAmount: ten times the spans, no more
// allocations, so that memory does not grow with the file.
func TestWritersAllocateAFixedAmount(t *testing.T) {
	for _, w := range []struct {
		name  string
		write func(*Timeline) error
	}{
		{"WriteChromeTrace", func(tl *Timeline) error { return tl.WriteChromeTrace(io.Discard) }},
		{"WriteJSON", func(tl *Timeline) error { return WriteJSON(tl, io.Discard) }},
	} {
		allocs := func(n int) float64 {
			tl := bigTimeline(n)
			return testing.AllocsPerRun(2, func() {
				if err := w.write(tl); err != nil {
					t.Fatal(err)
				}
			})
		}
		small, large := allocs(10_000), allocs(100_000)
		if large > small+16 {
			t.Errorf("%s: %.0f allocations for 100,000 spans, %.0f for 10,000; want no more", w.name, large, small)
		}
	}
}
