package budget

import (
	"errors"
	"math"
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Limits
		err  string
	}{
		{"", CLI, ""},
		{"cli", CLI, ""},
		{"spans=50M,memory=4GiB", func() Limits { l := CLI; l.Spans, l.Memory = 50e6, 4*float64(units.GiB); return l }(), ""},
		{"events=1.5G, transfers=200k", func() Limits { l := CLI; l.Events, l.Transfers = 1.5e9, 200e3; return l }(), ""},
		{"trace=1GB", func() Limits { l := CLI; l.TraceBytes = 1e9; return l }(), ""},
		{"spans", Limits{}, "not key=value"},
		{"gpus=4", Limits{}, `unknown key "gpus"`},
		{"spans=0", Limits{}, "want a count > 0"},
		{"spans=NaN", Limits{}, "want a count > 0"},
		{"memory=-1GiB", Limits{}, "memory=-1GiB"},
	} {
		got, err := Parse(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Parse(%q): error %v, want one saying %q", c.in, err, c.err)
			}
			continue
		}
		got.Who, c.want.Who = "", ""
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	if b, err := Parse("browser"); err != nil || b.Spans != Browser.Spans {
		t.Errorf("Parse(browser) = %+v, %v", b, err)
	}
}

// FuzzParse: any --budget text is a budget of positive limits or an error
// that names --budget; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"cli", "browser", "spans=50M,memory=4GiB", "events=1e3", "trace=1", "x=y=z", ",,", "memory=9999999TiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--budget") {
				t.Errorf("Parse(%q): error %q does not name --budget", s, err)
			}
			return
		}
		for _, v := range []float64{l.Events, l.Transfers, l.Spans, l.TraceBytes, l.Memory} {
			if !(v > 0) || math.IsNaN(v) {
				t.Errorf("Parse(%q) = %+v: a limit not > 0", s, l)
			}
		}
	})
}

func TestCheckNamesTheField(t *testing.T) {
	w := Of(Items{Transfers: Count{N: 1.7e6, Why: "512 GPUs × 64 chunks", Field: "collective.chunks", Fix: "lower collective.chunks or use fidelity: analytic"}, GPUs: 512})
	err := Browser.Check(w)
	var fe *scenario.FieldError
	if !errors.As(err, &fe) || fe.Field != "collective.chunks" {
		t.Fatalf("Check = %v, want a FieldError of collective.chunks", err)
	}
	want := "collective.chunks: 512 GPUs × 64 chunks = 1.7 M transfers; the browser allows 200 k: lower collective.chunks or use fidelity: analytic"
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	// The command line takes 1.7 M transfers, but not the 2.2 GiB they
	// allocate.
	if err := CLI.Check(w); err == nil || !strings.Contains(err.Error(), "of memory; the command line allows 1.5 GiB") {
		t.Errorf("the CLI: %v", err)
	}
	if err := CLI.Check(Work{Spans: Count{N: math.Inf(1)}}); err == nil {
		t.Error("an infinite bound passes")
	}
}

func TestShortAndSize(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Short(1.7e6), "1.7 M"}, {Short(523264), "523 k"}, {Short(200e3), "200 k"}, {Short(12), "12"},
		{Short(6.3e13), "63 T"}, {Short(3e20), "3.0e+20"},
		{Size(1.5 * float64(units.GiB)), "1.5 GiB"}, {Size(384 * float64(units.MiB)), "384 MiB"}, {Size(100), "100 B"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
