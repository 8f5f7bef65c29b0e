package collective

import "testing"

func TestFormulaText(t *testing.T) {
	for _, c := range []struct {
		op, algo string
		chunks   int
		want     string
	}{
		{"all_reduce", "ring", 1, "2(n−1)α + 2(n−1)/n·S/B"},
		{"all_reduce", "ring", 4, "2(n−1)kα + 2(n−1)/n·S/B"},
		{"all_reduce", "tree", 1, "(4⌈log₂n⌉−2)·(α + S/(2B))"},
		{"all_reduce", "tree", 8, "(4⌈log₂n⌉−2+4(k−1))·(α + S/(2kB))"},
		{"all_reduce", "halving_doubling", 1, "2·log₂n·α + 2(n−1)/n·S/B"},
		{"all_reduce", "recursive_doubling", 1, "⌈log₂n⌉·(α + S/B)"},
		{"reduce_scatter", "ring", 1, "(n−1)α + (n−1)/n·S/B"},
		{"all_gather", "ring", 2, "(n−1)α + (n−1)/n·S/B"},
		{"all_to_all", "pairwise", 1, "(n−1)α + (n−1)/n·S/B"},
		{"broadcast", "binomial", 1, "⌈log₂n⌉·(α + S/B)"},
		{"reduce", "binomial", 1, "⌈log₂n⌉·(α + S/B)"},
		{"broadcast", "chain", 4, "(n+k−2)·(α + S/(kB))"},
		{"all_reduce", "hierarchical", 1, "(hierarchical)"},
		{"all_reduce", "halving_doubling_x", 1, "(halving-doubling-x)"},
	} {
		if got := FormulaText(c.op, c.algo, c.chunks); got != c.want {
			t.Errorf("FormulaText(%s, %s, %d) = %q, want %q", c.op, c.algo, c.chunks, got, c.want)
		}
	}
}
