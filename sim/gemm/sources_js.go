//go:build js

package gemm

// sources is empty in the browser's build: it never shows the catalog's
// citations (sources.go), which would only grow its download.
var sources map[string][2]string
