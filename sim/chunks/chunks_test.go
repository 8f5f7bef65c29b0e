package chunks

import (
	"runtime"
	"testing"
)

// TestRangesCoverInOrder: the ranges of every split are contiguous, in
// order, and cover [0, size) once, even when there are more ranges than
// items.
func TestRangesCoverInOrder(t *testing.T) {
	for _, tc := range []struct{ size, n int }{{0, 1}, {1, 1}, {10, 3}, {3, 8}, {1 << 16, 8}, {100003, 7}} {
		bounds := make([][2]int, tc.n)
		Ranges(tc.size, tc.n, func(k, lo, hi int) { bounds[k] = [2]int{lo, hi} })
		next := 0
		for k, b := range bounds {
			if b[0] != next || b[1] < b[0] {
				t.Errorf("size %d in %d: range %d is [%d, %d), want it to start at %d", tc.size, tc.n, k, b[0], b[1], next)
			}
			next = b[1]
		}
		if next != tc.size {
			t.Errorf("size %d in %d: ranges end at %d", tc.size, tc.n, next)
		}
	}
}

// TestForSplitsOnlyLargePasses: a pass below Min items, or on one core,
// runs in place; a larger one gets four ranges per core.
func TestForSplitsOnlyLargePasses(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	large := 1
	if procs > 1 {
		large = 4 * procs
	}
	for _, tc := range []struct{ n, want int }{{0, 1}, {Min - 1, 1}, {Min, large}, {1 << 22, large}} {
		if got := For(tc.n); got != tc.want {
			t.Errorf("For(%d) = %d on %d cores, want %d", tc.n, got, procs, tc.want)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if got := For(1 << 22); got != 1 {
		t.Errorf("For(1<<22) = %d on one core, want 1", got)
	}
}
