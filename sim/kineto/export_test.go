//go:build !js

package kineto

import "io"

// ReadScan is Read through the browser's path: the package's own
// tokenizer (scanFile) instead of encoding/json.
func ReadScan(r io.Reader, name string, lim Limits) (*Trace, error) {
	return read(r, name, lim, scanFile)
}

// ScanDims, ScanTypes, DecodeDims and DecodeTypes are the two paths'
// readers of a GEMM operator's Input Dims and Input type.
var (
	ScanDims    = scanDims
	ScanTypes   = scanTypes
	DecodeDims  = func(b []byte) ([][]int64, bool) { return decodeDims(b) }
	DecodeTypes = func(b []byte) []string { return decodeTypes(b) }
)
