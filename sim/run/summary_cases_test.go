package run

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"paraplay/sim/golden"
	"paraplay/sim/scenario"
)

// A summary case is one file under testdata/summary holding a scenario and
// the text summary it must print, in the style of the raft and CockroachDB
// data-driven tests: comment lines, then two sections,
//
//	# what the case shows
//	-- scenario --
//	(YAML)
//	-- summary --
//	(the text paraplay run prints)
//
// A new case is a new file; go test -update rewrites the summary section
// and keeps the rest.
type summaryCase struct {
	comment  string // the lines before the first section, verbatim
	scenario string
	summary  string
}

// The section markers of a summary case, in their order.
const (
	scenarioMarker = "-- scenario --\n"
	summaryMarker  = "-- summary --\n"
)

// parseSummaryCase splits a case file into its comment and sections.
func parseSummaryCase(data string) (summaryCase, error) {
	i := strings.Index(data, scenarioMarker)
	if i < 0 || (i > 0 && data[i-1] != '\n') {
		return summaryCase{}, fmt.Errorf("no %q line", strings.TrimSpace(scenarioMarker))
	}
	rest := data[i+len(scenarioMarker):]
	j := strings.Index(rest, "\n"+summaryMarker)
	if j < 0 {
		return summaryCase{}, fmt.Errorf("no %q line after the scenario", strings.TrimSpace(summaryMarker))
	}
	c := summaryCase{comment: data[:i], scenario: rest[:j+1], summary: rest[j+1+len(summaryMarker):]}
	if strings.Contains(c.summary, "\n-- ") || strings.HasPrefix(c.summary, "-- ") {
		return summaryCase{}, fmt.Errorf("a third section; a case has a scenario and a summary")
	}
	return c, nil
}

// format writes the case back as parseSummaryCase reads it.
func (c summaryCase) format() string {
	return c.comment + scenarioMarker + c.scenario + summaryMarker + c.summary
}

// TestSummaryCases simulates the scenario of every testdata/summary case
// and compares its text summary with the case's summary section.
func TestSummaryCases(t *testing.T) {
	for _, file := range golden.Files(t, filepath.Join("testdata", "summary", "*.txt")) {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c, err := parseSummaryCase(string(data))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			s, err := scenario.Parse([]byte(c.scenario))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			tl, err := Simulate(s)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			var b bytes.Buffer
			if err := tl.Summarize().WriteText(&b); err != nil {
				t.Fatal(err)
			}
			c.summary = b.String()
			golden.Check(t, file, []byte(c.format()))
		})
	}
}

func TestParseSummaryCase(t *testing.T) {
	for _, c := range []struct {
		in   string
		want summaryCase
		err  string
	}{
		{"# a\n-- scenario --\ngpus: 2\n-- summary --\nok\n", summaryCase{"# a\n", "gpus: 2\n", "ok\n"}, ""},
		{"-- scenario --\n\n-- summary --\n", summaryCase{"", "\n", ""}, ""},
		{"gpus: 2\n-- summary --\nok\n", summaryCase{}, `no "-- scenario --" line`},
		{"x-- scenario --\n-- summary --\n", summaryCase{}, `no "-- scenario --" line`},
		{"-- scenario --\ngpus: 2\n", summaryCase{}, `no "-- summary --" line after the scenario`},
		{"-- scenario --\na\n-- summary --\nb\n-- json --\n", summaryCase{}, "a third section"},
	} {
		got, err := parseSummaryCase(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err && !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("parse %q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parse %q = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if f := got.format(); f != c.in {
			t.Errorf("format(parse(%q)) = %q", c.in, f)
		}
	}
}
