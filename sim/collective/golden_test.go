package collective

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/golden"
)

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
		golden.Check(t, path, []byte(got))
	}
}
