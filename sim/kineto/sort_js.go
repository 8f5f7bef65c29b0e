//go:build js

package kineto

import "sort"

// sortStable sorts s stably by cmp. The browser build sorts with package
// sort, whose one reflection-based routine serves every type, rather than
// an instantiation of slices' generic sort per type (about 8 KB of wasm
// each); a stable sort's result is the same either way.
func sortStable[T any](s []T, cmp func(a, b T) int) {
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}
