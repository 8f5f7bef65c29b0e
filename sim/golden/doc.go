// Package golden checks test outputs against golden files under testdata/
// and rewrites them when the tests run with -update.
//
// It owns the one -update flag of the repository's tests, so that
// go test ./... -update regenerates every golden file at once, and
// [Files] fails a test whose glob matches nothing, so a moved testdata
// folder cannot leave a golden test passing with zero cases. Review a
// regeneration as a diff (git diff) before committing it.
package golden
