package nccltest

import (
	"fmt"
	"testing"

	"paraplay/sim/scenario"
)

// TestTorusAllToAllEvents: the work bound of an all-to-all on a slice
// holds the events the run fires (on the shapes where a bound of
// EventsPerItem a message did not: 16 chips in a line gave 6.5 a message,
// 8×8 gave 17). The largest shapes measured for the bound's comment
// (8×16, 16×16) take too long for a test.
func TestTorusAllToAllEvents(t *testing.T) {
	for _, c := range []struct{ gpu, topo, wrap string }{
		{"tpu-v5e", "16", "none"}, {"tpu-v5e", "4x8", ""}, {"tpu-v5e", "8x8", ""},
		{"tpu-v5p", "16", ""}, {"tpu-v5p", "4x4x4", ""}, {"tpu-v5p", "2x4x8", "none"},
	} {
		for _, size := range []string{"64MiB", "64KiB"} {
			y := fmt.Sprintf("strategy: collective\ncluster: {gpu: %s, topology: %q}\ncollective: {op: all_to_all, size: %s, algorithm: auto}\n", c.gpu, c.topo, size)
			if c.wrap != "" {
				y = fmt.Sprintf("strategy: collective\ncluster: {gpu: %s, topology: %q, wraparound: %s}\ncollective: {op: all_to_all, size: %s, algorithm: auto}\n", c.gpu, c.topo, c.wrap, size)
			}
			s, err := scenario.Parse([]byte(y))
			if err != nil {
				t.Fatal(err)
			}
			w := Strategy{}.Work(s)
			tl, err := Simulate(s)
			if err != nil {
				t.Fatal(err)
			}
			if n := float64(tl.Events); n > w.Events.N || n < 2*float64(tl.Transfers.Len()) {
				t.Errorf("%s %s, %s: %v events for %d messages; want at least 2 a message and at most the bound %g (%s)",
					c.gpu, c.topo, size, n, tl.Transfers.Len(), w.Events.N, w.Events.Why)
			}
		}
	}
}
