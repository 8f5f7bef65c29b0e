package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestGallery runs every row of the gallery: every enforced row must hold
// its tolerance, and no row may be broken. It also checks that the rows the
// gallery promises are there.
func TestGallery(t *testing.T) {
	rows, err := Rows()
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(rows, Kinds())
	for _, x := range rep.Results {
		t.Logf("%-30s published %8s  simulated %6s  error %7s  enforced %-5v  %s",
			x.Row.ID, figure(x.Row.Published.Value), x.SimulatedText(), x.ErrorText(), x.Row.Enforced, x.Status)
		switch x.Status {
		case Fails:
			t.Errorf("%s: enforced, simulated %s against published %v %s: error %s, tolerance %s",
				x.Row.ID, x.SimulatedText(), x.Row.Published.Value, x.Row.Published.Unit, x.ErrorText(), x.ToleranceText())
		case Broken:
			t.Errorf("%s: broken: %s", x.Row.ID, x.Problem)
		}
	}
	if !rep.OK() {
		t.Error("Report.OK is false")
	}
	count := map[string]int{}
	for _, r := range rows {
		count[r.Kind]++
	}
	for kind, want := range map[string]int{"training-tflops": 18, "training-layer": 6, "nccl-tests-busbw": 2, "gemm-table-summary": 1} {
		if count[kind] < want {
			t.Errorf("%d rows of kind %s, want at least %d", count[kind], kind, want)
		}
	}
}

// TestEveryRowIsSourced: a source with an address, the claim, and how it
// was confirmed, on every row; a reason on every row not enforced.
func TestEveryRowIsSourced(t *testing.T) {
	rows, err := Rows()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Source.Cite == "" || r.Source.Says == "" || !strings.HasPrefix(r.Source.URL, "https://") {
			t.Errorf("%s: source %+v: want cite, says and an https url", r.ID, r.Source)
		}
		if len(strings.Fields(r.Confirmed)) < 5 {
			t.Errorf("%s: confirmed %q: say how the figure was checked", r.ID, r.Confirmed)
		}
		if !r.Enforced && len(strings.Fields(r.Why)) < 5 {
			t.Errorf("%s: not enforced, why %q: say why", r.ID, r.Why)
		}
		if _, err := lookup(Kinds(), r.Kind); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
	}
}

// fixed is a kind that returns v (or err) whatever the config.
func fixed(v float64, err error) Kind {
	return Kind{Name: "fixed", Optional: []string{"x"}, Simulate: func(map[string]string) (float64, error) { return v, err }}
}

func row(enforced bool, compare string, published, tol float64) Row {
	return Row{ID: "r", Group: "g", Title: "t", Kind: "fixed", Published: Figure{published, "u"},
		Compare: compare, Tolerance: tol, Enforced: enforced, Why: "a reason in words",
		Source: Source{Cite: "c", URL: "https://example.org", Says: "s"}, Confirmed: "c"}
}

func TestRunRowStatuses(t *testing.T) {
	tests := []struct {
		name    string
		row     Row
		kind    Kind
		want    Status
		wantErr float64
	}{
		{"within, enforced", row(true, Relative, 100, 0.1), fixed(105, nil), Holds, 0.05},
		{"within, not enforced", row(false, Relative, 100, 0.1), fixed(95, nil), Holds, -0.05},
		{"outside, not enforced", row(false, Relative, 100, 0.1), fixed(80, nil), Off, -0.2},
		{"outside, enforced", row(true, Relative, 100, 0.1), fixed(120, nil), Fails, 0.2},
		{"at the edge holds", row(true, Relative, 100, 0.25), fixed(125, nil), Holds, 0.25},
		{"at most, under", row(true, AtMost, 10, 0), fixed(7, nil), Holds, -3},
		{"at most, over, enforced", row(true, AtMost, 10, 0), fixed(12, nil), Fails, 2},
		{"pending, not enforced", row(false, AtMost, 10, 0), fixed(0, ErrPending), Pending, math.NaN()},
		{"pending, enforced", row(true, AtMost, 10, 0), fixed(0, ErrPending), Broken, math.NaN()},
		{"simulator error", row(false, Relative, 1, 0.1), fixed(0, errors.New("boom")), Broken, math.NaN()},
		{"not a number", row(false, Relative, 1, 0.1), fixed(math.Inf(1), nil), Broken, math.NaN()},
	}
	for _, tc := range tests {
		got := RunRow(tc.row, []Kind{tc.kind})
		if got.Status != tc.want {
			t.Errorf("%s: status %s, want %s (problem %q)", tc.name, got.Status, tc.want, got.Problem)
		}
		if math.IsNaN(tc.wantErr) != math.IsNaN(got.Error) || !math.IsNaN(got.Error) && math.Abs(got.Error-tc.wantErr) > 1e-12 {
			t.Errorf("%s: error %v, want %v", tc.name, got.Error, tc.wantErr)
		}
	}
}

func TestRunRowChecksConfigAndKind(t *testing.T) {
	r := row(false, Relative, 1, 0.1)
	r.Config = map[string]string{"y": "1"}
	if got := RunRow(r, []Kind{fixed(1, nil)}); got.Status != Broken || !strings.Contains(got.Problem, "config.y") {
		t.Errorf("unknown config key: %s %q, want broken naming config.y", got.Status, got.Problem)
	}
	r.Config, r.Kind = nil, "nope"
	if got := RunRow(r, []Kind{fixed(1, nil)}); got.Status != Broken || !strings.Contains(got.Problem, "fixed") {
		t.Errorf("unknown kind: %s %q, want broken listing the known kinds", got.Status, got.Problem)
	}
	k := fixed(1, nil)
	k.Required = []string{"z"}
	r.Kind = "fixed"
	if got := RunRow(r, []Kind{k}); got.Status != Broken || !strings.Contains(got.Problem, "config.z: missing") {
		t.Errorf("missing config key: %s %q", got.Status, got.Problem)
	}
}

const goodRow = `id: a-row
group: g
title: t
kind: fixed
config: {x: "1"}
published: {value: 3, unit: u}
tolerance: 0.1
enforced: true
source: {cite: c, url: "https://example.org/x", says: s}
confirmed: read it
`

func TestParseRow(t *testing.T) {
	r, err := ParseRow([]byte(goodRow))
	if err != nil {
		t.Fatal(err)
	}
	if r.Compare != Relative || r.Config["x"] != "1" || r.Published.Value != 3 {
		t.Errorf("parsed %+v", r)
	}
	tests := []struct{ change, field string }{
		{"id: a-row\n", "id: A Row\n"},
		{"tolerance: 0.1\n", "tolerance: 2\n"},
		{"published: {value: 3, unit: u}\n", "published: {value: -3, unit: u}\n"},
		{"enforced: true\n", "enforced: false\n"},
		{`url: "https://example.org/x"`, `url: "http://x"`},
		{"confirmed: read it\n", "confirmed: \"\"\n"},
		{"kind: fixed\n", "kind: fixed\ncolour: red\n"},
		{"tolerance: 0.1\n", "compare: roughly\ntolerance: 0.1\n"},
		{"tolerance: 0.1\n", "compare: at_most\ntolerance: 0.1\n"},
	}
	wantField := []string{"id", "tolerance", "published.value", "why", "source.url", "confirmed", "colour", "compare", "tolerance"}
	for i, tc := range tests {
		_, err := ParseRow([]byte(strings.Replace(goodRow, tc.change, tc.field, 1)))
		if err == nil || !strings.Contains(err.Error(), wantField[i]) {
			t.Errorf("%q → %q: error %v, want one naming %s", tc.change, tc.field, err, wantField[i])
		}
	}
	if _, err := ParseRow([]byte(goodRow + "---\n" + goodRow)); err == nil {
		t.Error("two documents: no error")
	}
}

func TestReportOutput(t *testing.T) {
	rep := Run([]Row{row(true, Relative, 100, 0.1), row(false, AtMost, 10, 0)}, []Kind{fixed(104, nil)})
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+4.0%", "±10%", "✓ holds", "≤ 10", "✗ off", "r (off): a reason in words", "2 rows: 1 hold, 1 off"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	pending := Run([]Row{row(false, AtMost, 10, 0)}, []Kind{fixed(0, ErrPending)})
	var js bytes.Buffer
	if err := pending.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		OK      bool
		Results []map[string]any
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if !back.OK || back.Results[0]["simulated"] != nil || back.Results[0]["status"] != "pending" {
		t.Errorf("JSON of a pending row: %s", js.String())
	}
}

// FuzzParseRow: the row parser never panics, and what it accepts is valid.
func FuzzParseRow(f *testing.F) {
	f.Add([]byte(goodRow))
	f.Add([]byte("id: x\nconfig: {a: [1, 2]}\n"))
	f.Add([]byte("published: {value: .nan}\n"))
	for _, name := range []string{"rows/10-megatron-2021-1.7b.yaml", "rows/30-gemm-h100-median.yaml"} {
		if data, err := rowFiles.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRow(data)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Errorf("ParseRow accepted a row that Validate refuses: %v", err)
		}
	})
}
