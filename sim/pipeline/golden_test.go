package pipeline

import (
	"path/filepath"
	"strings"
	"testing"

	"paraplay/sim/golden"
)

// gridCases are the (p, m, v) each schedule's golden grid shows: the
// papers' figure sizes (p = 4, m = 8) and a small one.
var gridCases = map[string][][3]int{
	"gpipe":           {{4, 8, 0}, {2, 3, 0}},
	"1f1b":            {{4, 8, 0}, {4, 2, 0}},
	"ready-first":     {{4, 8, 0}},
	"interleaved":     {{4, 8, 2}, {2, 4, 3}},
	"zb-h1":           {{4, 8, 0}, {2, 3, 0}},
	"zb-h2":           {{4, 8, 0}, {2, 4, 0}},
	"zb-v":            {{4, 8, 0}, {2, 4, 0}},
	"dualpipev":       {{4, 8, 0}, {2, 4, 0}},
	"stp":             {{2, 4, 0}},
	"pipedream-async": {{4, 8, 0}},
	"local-loss":      {{4, 8, 0}, {2, 3, 0}},
	"gpipe-2bp":       {{4, 8, 0}, {2, 3, 0}},
	"1f1b-2bp":        {{4, 8, 0}, {4, 2, 0}},
	"hetero-1f1b":     {{4, 8, 0}},
}

// TestGrids compares every schedule's time-aligned grid with
// testdata/<name>.txt. Review changes as diffs; regenerate with
// go test ./sim/pipeline -run TestGrids -update.
func TestGrids(t *testing.T) {
	for _, name := range Names() {
		cases, ok := gridCases[name]
		if !ok {
			t.Errorf("%s has no golden grid case", name)
			continue
		}
		var b strings.Builder
		for _, c := range cases {
			s, err := New(name, c[0], c[1], c[2])
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(Grid(s))
			b.WriteString("\n")
		}
		got := b.String()
		path := filepath.Join("testdata", name+".txt")
		golden.Check(t, path, []byte(got))
	}
}
