//go:build js

package gemm

// cite is "-" in the browser, which shows no citation (cite.go).
func cite(string) string { return "-" }
