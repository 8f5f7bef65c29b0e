//go:build !js

package collective

import (
	"errors"
	"runtime"
	"testing"

	"paraplay/sim/chunks"
	"paraplay/sim/units"
)

// validateInOrder is Validate's check of the transfers as one pass,
// transfer after transfer: the reference the split check must equal.
func validateInOrder(s *Schedule) error {
	var errs []error
	for i := range s.Transfers {
		if !s.sound(i) {
			errs = s.checkTransfer(errs, i)
		}
	}
	return errors.Join(errs...)
}

// sameError reports whether got and want are both nil or say the same.
func sameError(got, want error) bool {
	return (got == nil) == (want == nil) && (got == nil || got.Error() == want.Error())
}

// TestCheckTransfersSplitAgrees: split into 2 to 64 ranges, the check of
// the transfers of an 8-channel ring over 16 GPUs (960 transfers with
// dependencies and byte ranges) reports exactly the errors of one pass, in
// its order, with no fault and with faults of every kind Validate names,
// in the first transfer, the last, either side of a range's bounds, and
// several at once.
func TestCheckTransfersSplitAgrees(t *testing.T) {
	base := ChannelRing(OpAllReduce, 4, 4, units.GiB, 1, 8)
	n := len(base.Transfers)
	bound := n * 3 / 8 // a range bound when split in 8
	type fault struct {
		at  int
		how func(s *Schedule, i int)
	}
	rank := func(s *Schedule, i int) { s.Transfers[i].Dst = s.Ranks }
	self := func(s *Schedule, i int) { s.Transfers[i].Src = s.Transfers[i].Dst }
	step := func(s *Schedule, i int) { s.Transfers[i].Step = -1 }
	empty := func(s *Schedule, i int) { s.Transfers[i].Bytes = 0 }
	beyond := func(s *Schedule, i int) { s.Transfers[i].Offset = s.Bytes }
	pieces := func(s *Schedule, i int) { // a byte range of its own that does not add up
		if w := s.Transfers[i].ranges; w.n > 0 {
			s.Ranges[w.at].Bytes++
		} else {
			s.Transfers[i].Bytes++
		}
	}
	later := func(s *Schedule, i int) { s.SetAfter(i, []int{n - 1}) }
	dangling := func(s *Schedule, i int) { s.SetAfter(i, []int{n, -1}) }
	pools := func(s *Schedule, i int) { s.Transfers[i].after = window{int32(len(s.Deps)), 1} }
	for _, tc := range []struct {
		name   string
		faults []fault
	}{
		{"none", nil},
		{"rank out of range first", []fault{{0, rank}}},
		{"self send last", []fault{{n - 1, self}}},
		{"step before a bound", []fault{{bound - 1, step}}},
		{"empty at a bound", []fault{{bound, empty}}},
		{"beyond the buffer after a bound", []fault{{bound + 1, beyond}}},
		{"ranges that do not add up", []fault{{n / 2, pieces}}},
		{"waits for a later step", []fault{{bound, later}}},
		{"dangling dependencies", []fault{{n - 2, dangling}}},
		{"outside the pools", []fault{{n / 3, pools}}},
		{"several", []fault{{0, empty}, {1, later}, {bound - 1, rank}, {bound, dangling}, {bound, step}, {n / 2, pools}, {n - 1, beyond}}},
	} {
		s := ChannelRing(OpAllReduce, 4, 4, units.GiB, 1, 8)
		for _, f := range tc.faults {
			f.how(&s, f.at)
		}
		want := validateInOrder(&s)
		if (want != nil) != (len(tc.faults) > 0) {
			t.Errorf("%s: one pass says %v", tc.name, want)
		}
		for _, k := range []int{1, 2, 3, 8, 64} {
			if got := errors.Join(s.checkTransfers(k)...); !sameError(got, want) {
				t.Errorf("%s, %d ranges: %v\nwant %v", tc.name, k, got, want)
			}
		}
	}
}

// TestValidateSplitsLargeSchedules: a 65,000-transfer schedule, broken at
// both ends and at the bounds of the ranges the host splits it into, gets
// the one pass's errors from Validate, after the schedule's own.
func TestValidateSplitsLargeSchedules(t *testing.T) {
	s := ChannelRing(OpAllReduce, 17, 8, units.GiB, 1, 8)
	n := len(s.Transfers)
	k := chunks.For(n)
	if runtime.GOMAXPROCS(0) > 1 && k == 1 {
		t.Fatalf("%d transfers are not split on %d cores", n, runtime.GOMAXPROCS(0))
	}
	s.Root = -1
	for _, i := range []int{0, n/k - 1, n / k, n/k + 1, n - 1} {
		s.Transfers[i].Bytes = -5
	}
	want := errors.Join(errors.New("root -1 is not one of 136 ranks"), validateInOrder(&s))
	if got := s.Validate(); !sameError(got, want) {
		t.Errorf("Validate() = %v\nwant %v", got, want)
	}
}
