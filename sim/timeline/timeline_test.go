package timeline

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/units"
)

// small is a hand-made run: two GPUs, forward then backward, then one
// message each way.
func small() *Timeline {
	return &Timeline{
		Title: "two GPUs", Fidelity: "detailed",
		GPUs:  []GPU{{ID: 0, Name: "GPU 0"}, {ID: 1, Name: "GPU 1"}},
		Links: []Link{{ID: 0, From: 0, To: 1, Bandwidth: 1e9, Latency: 1000}, {ID: 1, From: 1, To: 0, Bandwidth: 1e9, Latency: 1000}},
		Spans: []Span{
			{GPU: 0, Kind: Forward, Label: "forward", Start: 0, End: 1000},
			{GPU: 1, Kind: Forward, Label: "forward", Start: 0, End: 1500},
			{GPU: 0, Kind: Backward, Label: "backward", Start: 1000, End: 3000},
			{GPU: 1, Kind: Backward, Label: "backward", Start: 1500, End: 3000},
		},
		Transfers: TransfersOf([]Transfer{
			{Path: []int{0}, Src: 0, Dst: 1, Bytes: 1000, Collective: 0, Phase: "reduce-scatter", Start: 3000, End: 5000, Rates: []Rate{{At: 4000, BytesPerSecond: 1e9}}},
			{Path: []int{1}, Src: 1, Dst: 0, Bytes: 1000, Collective: 0, Chunk: 1, Phase: "reduce-scatter", Start: 3000, End: 5000, Rates: []Rate{{At: 4000, BytesPerSecond: 1e9}}},
		}...),
		Collectives: []Collective{{Name: "all-reduce", Algorithm: "ring", Ranks: 2, GPUs: []int{0, 1}, Bytes: 2000, Start: 3000, End: 5000}},
		End:         5000,
	}
}

func TestValidateAcceptsAGoodRun(t *testing.T) {
	if err := small().Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
}

func TestValidateCatchesViolations(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Timeline)
		want   string
	}{
		{"double-booked GPU", func(tl *Timeline) { tl.Spans[2].Start = 500 }, "GPU 0 double-booked"},
		{"link over capacity", func(tl *Timeline) {
			tl.Transfers.Append(Transfer{Path: []int{0}, Src: 0, Dst: 1, Bytes: 500, Collective: -1, Start: 4000, End: 4500, Rates: []Rate{{At: 4000, BytesPerSecond: 1e9}}})
		}, "link 0 over capacity"},
		{"rates do not carry the bytes", func(tl *Timeline) {
			editTransfer(tl, 0, func(x *Transfer) { x.Rates = []Rate{{At: x.Rates[0].At, BytesPerSecond: 2e9}} })
		}, "rates carry 2000 bytes"},
		{"broken path", func(tl *Timeline) { editTransfer(tl, 0, func(x *Transfer) { x.Path = []int{1} }) }, "path is broken"},
		{"backward before forward", func(tl *Timeline) { tl.Spans[3].Start, tl.Spans[1].End = 1400, 1450 }, "before its forward"},
		{"empty span", func(tl *Timeline) { tl.Spans[0].End = 0 }, "bad interval"},
		{"end too early", func(tl *Timeline) { tl.End = 4000 }, "last operation ends at"},
		{"unknown GPU", func(tl *Timeline) { tl.Spans[0].GPU = 7 }, "GPU 7 does not exist"},
		{"unknown link", func(tl *Timeline) { editTransfer(tl, 0, func(x *Transfer) { x.Path = []int{9} }) }, "link 9 does not exist"},
		{"unknown collective", func(tl *Timeline) { editTransfer(tl, 0, func(x *Transfer) { x.Collective = 3 }) }, "collective 3"},
		{"zero bytes", func(tl *Timeline) { editTransfer(tl, 0, func(x *Transfer) { x.Bytes = 0 }) }, "size 0"},
		{"collective on an unknown GPU", func(tl *Timeline) { tl.Collectives[0].GPUs[1] = 5 }, "GPU 5 does not exist"},
	}
	for _, tc := range tests {
		tl := small()
		tc.mutate(tl)
		err := tl.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	s := small().Summarize()
	if s.Iteration != 5000 {
		t.Errorf("Iteration = %v, want 5000ns", s.Iteration)
	}
	if s.Compute != 3000 {
		t.Errorf("Compute = %v, want 3000ns (both GPUs compute 0–3000)", s.Compute)
	}
	if s.Communication != 2000 || s.ExposedCommunication != 2000 {
		t.Errorf("Communication = %v exposed %v, want 2000ns and 2000ns", s.Communication, s.ExposedCommunication)
	}
	// algbw = 2000 B / 2 µs = 1 GB/s; busbw = algbw × 2(n−1)/n = 1 GB/s for n = 2.
	c := s.Collectives[0]
	if c.AlgBW != 1e9 || c.BusBW != 1e9 {
		t.Errorf("algbw %v busbw %v, want 1GB/s and 1GB/s", c.AlgBW, c.BusBW)
	}
	for _, g := range s.GPUs {
		if g.Busy != 1 {
			t.Errorf("%s busy %v, want 1", g.Name, g.Busy)
		}
	}
}

func TestExposedCommunicationExcludesOverlap(t *testing.T) {
	tl := small()
	for i := range tl.Transfers.Len() { // overlaps GPU 1's backward
		editTransfer(tl, i, func(x *Transfer) {
			x.Start, x.End = 2000, 4000
			x.Rates = []Rate{{At: 3000, BytesPerSecond: 1e9}}
		})
	}
	tl.Collectives[0].Start, tl.Collectives[0].End = 2000, 4000
	tl.End = 4000
	s := tl.Summarize()
	if s.Communication != 2000 || s.ExposedCommunication != 1000 {
		t.Errorf("communication %v exposed %v, want 2000ns and 1000ns", s.Communication, s.ExposedCommunication)
	}
}

func TestChromeTraceGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := small().WriteChromeTrace(&buf); err != nil {
		t.Fatal(err)
	}
	// It must be valid JSON with complete events in microseconds.
	var f struct {
		TraceEvents []struct {
			Ph       string
			Ts, Dur  float64
			Pid, Tid int
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatalf("trace is not JSON: %v", err)
	}
	var complete int
	for _, e := range f.TraceEvents {
		if e.Ph == "X" {
			complete++
			if e.Dur <= 0 {
				t.Errorf("event with duration %v", e.Dur)
			}
		}
	}
	if complete != 6 {
		t.Errorf("%d complete events, want 6 (4 spans + 2 transfers)", complete)
	}
	golden.Check(t, "testdata/small.trace.json", buf.Bytes())
}

func TestTimeUnitsInTrace(t *testing.T) {
	tl := small()
	tl.Spans[0].End = units.Time(1234)
	tl.Spans[2].Start = 1234
	var buf bytes.Buffer
	if err := tl.WriteChromeTrace(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"dur": 1.234`) {
		t.Errorf("a 1234ns span is not written as 1.234µs:\n%s", buf.String())
	}
}

// editTransfer has f change transfer i of tl.
func editTransfer(tl *Timeline, i int, f func(x *Transfer)) {
	xs := transfersOf(tl)
	f(&xs[i])
	tl.Transfers = TransfersOf(xs...)
}

// transfersOf is a copy of tl's transfers.
func transfersOf(tl *Timeline) []Transfer {
	xs := make([]Transfer, tl.Transfers.Len())
	for i := range xs {
		xs[i] = tl.Transfers.At(i)
	}
	return xs
}
