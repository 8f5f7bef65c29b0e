//go:build !js

package kineto

import "slices"

// sortStable sorts s stably by cmp (sort_js.go says why the browser's
// differs).
func sortStable[T any](s []T, cmp func(a, b T) int) { slices.SortStableFunc(s, cmp) }
