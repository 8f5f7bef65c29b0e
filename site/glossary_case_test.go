package site

import "testing"

func TestCaseMatches(t *testing.T) {
	zero := Term{Term: "ZeRO"}
	ring := Term{Term: "ring all-reduce"}
	tests := []struct {
		t     Term
		found string
		want  bool
	}{
		{zero, "ZeRO", true}, {zero, "zero", false}, {zero, "Zero", false},
		{ring, "Ring all-reduce", true}, {ring, "ring all-reduce", true},
	}
	for _, tc := range tests {
		if got := caseMatches(tc.t, tc.found); got != tc.want {
			t.Errorf("caseMatches(%q, %q) = %v, want %v", tc.t.Term, tc.found, got, tc.want)
		}
	}
}
