package parallel

import (
	"fmt"
	"strings"
	"testing"
)

func TestRankCoordRoundTrip(t *testing.T) {
	for _, p := range []Plan{
		{DP: 2, TP: 4, PP: 2, CP: 1, EP: 1},
		{DP: 3, TP: 2, PP: 4, CP: 2, EP: 1},
		{DP: 2, TP: 2, PP: 2, CP: 2, EP: 2, Order: []Dim{TP, PP, CP, DP}},
	} {
		seen := map[int]bool{}
		for r := 0; r < p.World(); r++ {
			c := p.Coord(r)
			if got := p.Rank(c); got != r {
				t.Errorf("%+v: Rank(Coord(%d)) = %d", p, r, got)
			}
			seen[r] = true
		}
		if len(seen) != p.World() {
			t.Errorf("%+v: %d distinct ranks, want %d", p, len(seen), p.World())
		}
	}
}

// TestMegatronOrder: with TP innermost, rank = ((dp·PP + pp)·CP + cp)·TP + tp.
func TestMegatronOrder(t *testing.T) {
	p := Plan{DP: 2, TP: 8, PP: 4, CP: 2, EP: 1}
	for _, c := range []Coord{{DP: 1, TP: 3, PP: 2, CP: 1}, {DP: 0, TP: 7, PP: 3, CP: 0}} {
		want := ((c.DP*p.PP+c.PP)*p.CP+c.CP)*p.TP + c.TP
		if got := p.Rank(c); got != want {
			t.Errorf("Rank(%+v) = %d, want %d", c, got, want)
		}
	}
}

func TestGroups(t *testing.T) {
	p := Plan{DP: 2, TP: 2, PP: 2, CP: 1, EP: 1} // 8 ranks: tp innermost
	tests := []struct {
		rank int
		dim  Dim
		want string
	}{
		{0, TP, "[0 1]"}, {5, TP, "[4 5]"},
		{0, PP, "[0 2]"}, {3, PP, "[1 3]"},
		{0, DP, "[0 4]"}, {6, DP, "[2 6]"},
	}
	for _, tc := range tests {
		if got := fmt.Sprint(p.Group(tc.rank, tc.dim)); got != tc.want {
			t.Errorf("Group(%d, %s) = %s, want %s", tc.rank, tc.dim, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		plan          Plan
		gpus, perNode int
		err, warning  string
	}{
		{Plan{DP: 2, TP: 8, PP: 1, CP: 1, EP: 1}, 16, 8, "", ""},
		{Plan{DP: 128, TP: 8, PP: 4, CP: 1, EP: 1}, 8192, 8, "dp·tp·pp·cp = 4,096 but the cluster has 8,192 GPUs", ""},
		{Plan{DP: 1, TP: 16, PP: 1, CP: 1, EP: 1}, 16, 8, "", "tp = 16 exceeds gpus_per_node = 8"},
		{Plan{DP: 4, TP: 2, PP: 1, CP: 1, EP: 3}, 8, 8, "ep = 3 must divide dp = 4", ""},
		{Plan{DP: 0, TP: 2, PP: 1, CP: 1, EP: 1}, 8, 8, "parallel.dp: is 0", ""},
		{Plan{DP: 2, TP: 4, PP: 1, CP: 1, EP: 1, Order: []Dim{TP, TP, PP, DP}}, 8, 8, "must list tp, cp, pp and dp", ""},
		{Plan{DP: 2, TP: 3, PP: 1, CP: 1, EP: 1}, 6, 4, "", "does not divide gpus_per_node"},
	}
	for _, tc := range tests {
		warn, err := tc.plan.Check(tc.gpus, tc.perNode)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Check(%+v) error = %v, want %q", tc.plan, err, tc.err)
		}
		got := strings.Join(warn, "; ")
		if tc.warning == "" && got != "" || !strings.Contains(got, tc.warning) {
			t.Errorf("Check(%+v) warnings = %q, want %q", tc.plan, got, tc.warning)
		}
	}
}

func ExamplePlan_Group() {
	p := Plan{DP: 2, TP: 4, PP: 2, CP: 1, EP: 1}
	fmt.Println("tensor-parallel group of rank 9:", p.Group(9, TP))
	fmt.Println("pipeline of rank 9:", p.Group(9, PP))
	fmt.Println("data-parallel replicas of rank 9:", p.Group(9, DP))
	// Output:
	// tensor-parallel group of rank 9: [8 9 10 11]
	// pipeline of rank 9: [9 13]
	// data-parallel replicas of rank 9: [1 9]
}
