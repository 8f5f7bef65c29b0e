//go:build !js

package collective

import (
	"errors"
	"fmt"

	"paraplay/sim/chunks"
	"paraplay/sim/units"
)

// A schedule's own check runs on the host (every constructor's tests, the
// command line, the site's build); the browser build, whose schedules come
// from the same constructors, leaves it out of the wasm and still
// validates every run's timeline (schedule_check_js.go).

// Validate checks that ranks, steps, byte ranges and dependencies are
// consistent: every transfer moves a non-empty range of the buffer between
// two different ranks, and every dependency points to a transfer of an
// earlier step, so that the dependency graph has no cycle.
func (s *Schedule) Validate() error {
	var errs []error
	if s.Ranks < 1 {
		errs = append(errs, fmt.Errorf("schedule has %d ranks, want at least 1", s.Ranks))
	}
	if s.Root < 0 || s.Root >= max(s.Ranks, 1) {
		errs = append(errs, fmt.Errorf("root %d is not one of %d ranks", s.Root, s.Ranks))
	}
	if s.Servers < 0 || (s.Servers > 0 && s.Servers >= s.Ranks) {
		errs = append(errs, fmt.Errorf("%d servers among %d ranks leaves no worker", s.Servers, s.Ranks))
	}
	return errors.Join(append(errs, s.checkTransfers(chunks.For(len(s.Transfers)))...)...)
}

// checkTransfers is what is wrong with the transfers, in their order,
// checked in n contiguous ranges of indices on goroutines of their own
// (n > 1: a large schedule) or in place. Each transfer's check reads the
// schedule and changes nothing (a dependency's step included), so the
// ranges are independent, and joined in order they give the errors of
// one pass.
func (s *Schedule) checkTransfers(n int) []error {
	if n <= 1 {
		return s.checkRange(nil, 0, len(s.Transfers))
	}
	parts := make([][]error, n)
	chunks.Ranges(len(s.Transfers), n, func(k, lo, hi int) { parts[k] = s.checkRange(nil, lo, hi) })
	var errs []error
	for _, p := range parts {
		errs = append(errs, p...)
	}
	return errs
}

// checkRange appends to errs what is wrong with transfers lo..hi−1.
func (s *Schedule) checkRange(errs []error, lo, hi int) []error {
	for i := lo; i < hi; i++ {
		if !s.sound(i) { // the rare faulty transfer: say what is wrong
			errs = s.checkTransfer(errs, i)
		}
	}
	return errs
}

// sound reports whether transfer i passes every check of checkTransfer:
// a fast path for the millions of transfers of a large schedule, which
// builds no error and calls nothing per byte range or dependency.
func (s *Schedule) sound(i int) bool {
	t := &s.Transfers[i] // not a copy: millions of records
	if t.Src < 0 || t.Src >= s.Ranks || t.Dst < 0 || t.Dst >= s.Ranks || t.Src == t.Dst || t.Step < 0 || t.Step >= s.Steps ||
		t.Bytes <= 0 || !s.inPools(t) {
		return false
	}
	if t.ranges.n == 0 {
		if t.Offset < 0 || t.Offset+t.Bytes > s.Bytes {
			return false
		}
	} else {
		rs := s.Ranges[t.ranges.at : t.ranges.at+t.ranges.n]
		var sum units.Bytes
		for _, r := range rs {
			if r.Offset < 0 || r.Offset+r.Bytes > s.Bytes {
				return false
			}
			sum += r.Bytes
		}
		if sum != t.Bytes || rs[0].Offset != t.Offset {
			return false
		}
	}
	if t.after.n == 0 {
		return true
	}
	for _, d := range s.Deps[t.after.at : t.after.at+t.after.n] {
		if uint(d) >= uint(len(s.Transfers)) || s.Transfers[d].Step >= t.Step {
			return false
		}
	}
	return true
}

// checkTransfer appends to errs what is wrong with transfer i.
func (s *Schedule) checkTransfer(errs []error, i int) []error {
	t := &s.Transfers[i]
	if t.Src < 0 || t.Src >= s.Ranks || t.Dst < 0 || t.Dst >= s.Ranks || t.Src == t.Dst {
		errs = append(errs, fmt.Errorf("transfer %d: %d→%d is not between two of %d ranks", i, t.Src, t.Dst, s.Ranks))
	}
	if t.Step < 0 || t.Step >= s.Steps {
		errs = append(errs, fmt.Errorf("transfer %d: step %d outside 0..%d", i, t.Step, s.Steps-1))
	}
	if t.Bytes <= 0 {
		errs = append(errs, fmt.Errorf("transfer %d: %d bytes", i, t.Bytes))
	}
	if !s.inPools(t) {
		return append(errs, fmt.Errorf("transfer %d: its ranges or dependencies are not in the schedule's pools", i))
	}
	errs = s.checkPieces(errs, i)
	for _, d := range s.After(i) {
		if d < 0 || int(d) >= len(s.Transfers) || s.Transfers[d].Step >= t.Step {
			errs = append(errs, fmt.Errorf("transfer %d: waits for transfer %d, which is not an earlier step", i, d))
		}
	}
	return errs
}

// checkPieces appends to errs what is wrong with the byte ranges of
// transfer i.
func (s *Schedule) checkPieces(errs []error, i int) []error {
	t := &s.Transfers[i]
	if t.ranges.n == 0 { // the one piece (Pieces), without making its list
		if t.Offset < 0 || t.Offset+t.Bytes > s.Bytes {
			errs = append(errs, fmt.Errorf("transfer %d: bytes [%d, %d) outside the %d-byte buffer", i, t.Offset, t.Offset+t.Bytes, s.Bytes))
		}
		return errs
	}
	rs := s.Pieces(i)
	var sum units.Bytes
	for _, r := range rs {
		if r.Offset < 0 || r.Offset+r.Bytes > s.Bytes {
			errs = append(errs, fmt.Errorf("transfer %d: bytes [%d, %d) outside the %d-byte buffer", i, r.Offset, r.Offset+r.Bytes, s.Bytes))
		}
		sum += r.Bytes
	}
	if sum != t.Bytes || rs[0].Offset != t.Offset {
		errs = append(errs, fmt.Errorf("transfer %d: ranges of %d bytes from %d, but the message says %d from %d", i, sum, rs[0].Offset, t.Bytes, t.Offset))
	}
	return errs
}

// inPools reports whether t's windows lie in the schedule's pools (a
// transfer copied from another schedule may not).
func (s *Schedule) inPools(t *Transfer) bool {
	in := func(w window, n int) bool { return w.n == 0 || (w.at >= 0 && w.n > 0 && int(w.at)+int(w.n) <= n) }
	return in(t.ranges, len(s.Ranges)) && in(t.after, len(s.Deps))
}
