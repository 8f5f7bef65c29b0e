package collective

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden grids in testdata/")

// TestGrids compares every algorithm's step × rank grid on a few rank counts
// with testdata/<algorithm>.txt. Review changes as diffs; regenerate with
// go test ./sim/collective -run TestGrids -update.
func TestGrids(t *testing.T) {
	all := schedules()
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var b strings.Builder
		for _, s := range all[name] {
			if s.Ranks <= 8 {
				b.WriteString(grid(s))
				b.WriteString("\n")
			}
		}
		got := b.String()
		path := filepath.Join("testdata", name+".txt")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s grid differs from %s; run with -update and review the diff.\ngot:\n%s", name, path, got)
		}
	}
}
