package taskgraph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortSeqsSorts: the bitmap sort of dense candidates and the plain
// sort of sparse ones both give slices.Sort's order.
func TestSortSeqsSorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	var p ports
	for run := range 300 {
		n := rng.IntN(200)
		span := 1 + rng.IntN(40*n+1)
		seen := map[int32]bool{}
		var c []int32
		for len(c) < n && len(c) < span {
			s := int32(1000 + rng.IntN(span))
			if !seen[s] {
				seen[s] = true
				c = append(c, s)
			}
		}
		want := slices.Sorted(slices.Values(c))
		p.sortSeqs(c)
		if !slices.Equal(c, want) {
			t.Fatalf("run %d: sortSeqs gave %v, want %v", run, c, want)
		}
	}
}
