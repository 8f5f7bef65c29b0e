package parallel

import (
	"slices"
	"strings"
	"testing"
)

// TestExpertGroup: with etp = tp an expert-parallel group is ep
// consecutive data-parallel replicas (Megatron-LM's EP over DP); with
// etp < tp it takes tp/etp tensor-parallel ranks of each replica.
func TestExpertGroup(t *testing.T) {
	p := Plan{DP: 8, TP: 2, PP: 2, CP: 1, EP: 4}
	if got, want := p.ExpertGroup(0), p.Group(0, DP)[:4]; !slices.Equal(got, want) {
		t.Errorf("etp = tp: group %v, want the first 4 data-parallel ranks %v", got, want)
	}
	q := p
	q.ETP = 1
	// Ranks tp + 2·(pp + 2·dp): tp 0 and 1 of replicas 0 and 1, stage 0.
	if got, want := q.ExpertGroup(0), []int{0, 1, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("etp 1: group %v, want %v", got, want)
	}
	for _, r := range q.ExpertGroup(5) {
		if _, ep, _ := q.ExpertCoord(r); ep != slices.Index(q.ExpertGroup(5), r) {
			t.Errorf("rank %d: expert-parallel index %d, not its place in its group", r, ep)
		}
	}
	if _, err := (Plan{DP: 2, TP: 2, PP: 1, CP: 1, EP: 4, ETP: 1}).Check(4, 4); err != nil {
		t.Errorf("ep 4 over 2 tp × 2 dp with etp 1: %v", err)
	}
	for _, tc := range []struct {
		p    Plan
		want string
	}{
		{Plan{DP: 2, TP: 2, PP: 1, CP: 1, EP: 4}, "parallel.ep: ep = 4 must divide dp = 2"},
		{Plan{DP: 2, TP: 4, PP: 1, CP: 1, EP: 1, ETP: 3}, "parallel.etp: is 3"},
		{Plan{DP: 3, TP: 2, PP: 1, CP: 1, EP: 4, ETP: 1}, "ep·etp = 4·1 must divide tp·dp = 2·3"},
	} {
		_, err := tc.p.Check(tc.p.World(), 8)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.p, err, tc.want)
		}
	}
}
