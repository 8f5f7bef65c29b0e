package pipeline

import (
	"slices"
	"strings"
	"testing"
)

// TestValidateRejects breaks a valid schedule in one way per case and
// checks that Validate names the problem.
func TestValidateRejects(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(s *Schedule)
		want   string
	}{
		{"missing op", func(s *Schedule) { s.Order[1] = s.Order[1][:len(s.Order[1])-1] }, "never runs B3"},
		{"duplicate op", func(s *Schedule) { s.Order[0][1] = s.Order[0][0] }, "runs F0 twice"},
		{"deadlock: B before its F", func(s *Schedule) {
			o := s.Order[3]
			o[0], o[1] = o[1], o[0] // B0 before F0 on the last stage
		}, "deadlocks"},
		{"deadlock: cross wait", func(s *Schedule) {
			// device 0 wants B1 before F3, which device 1 needs first.
			s.Order[0] = []Op{fwd(0), fwd(1), fwd(2), bwd(0), bwd(1), fwd(3), bwd(2), bwd(3)}
		}, "deadlocks"},
		{"W without split", func(s *Schedule) { s.Order[0] = append(s.Order[0], wgt(0)) }, "without SplitBackward"},
		{"microbatch out of range", func(s *Schedule) { s.Order[2][0].Microbatch = 4 }, "microbatch 4 outside 0..3"},
		{"chunk out of range", func(s *Schedule) { s.Order[2][0].Chunk = 1 }, "chunk 1 outside 0..0"},
		{"layout not a permutation", func(s *Schedule) { s.Layout[1] = s.Layout[0] }, "both run on"},
		{"layout too short", func(s *Schedule) { s.Layout = s.Layout[:3] }, "Layout has 3 model stages, want p·v = 4"},
		{"devices missing", func(s *Schedule) { s.Order = s.Order[:3] }, "Order has 3 devices, want 4"},
		{"no microbatches", func(s *Schedule) { s.Microbatches = 0 }, "0 microbatches"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := OneFOneB(4, 4)
			if err := s.Validate(); err != nil {
				t.Fatalf("unbroken schedule: %v", err)
			}
			for d := range s.Order {
				s.Order[d] = slices.Clone(s.Order[d])
			}
			s.Layout = slices.Clone(s.Layout)
			c.break_(&s)
			err := s.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Validate() got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestExecutePanicsOnInvalid: a schedule that deadlocks has no result.
func TestExecutePanicsOnInvalid(t *testing.T) {
	s := GPipe(2, 2)
	s.Order[1] = []Op{bwd(0), fwd(0), fwd(1), bwd(1)}
	defer func() {
		if recover() == nil {
			t.Error("Execute of a deadlocking schedule did not panic")
		}
	}()
	Execute(s, Times{F: 1, B: 1, W: 1})
}
