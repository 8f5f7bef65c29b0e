//go:build js

package kineto

import "io"

// number is a JSON number's text (encoding/json's Number, which the
// browser build does not carry).
type number string

// String returns the number's text.
func (n number) String() string { return string(n) }

// rawValue is a JSON value's text, decoded when used.
type rawValue = []byte

// analysisInputs is false in the browser: it shows the timeline, which
// does not use the host's runtime calls and GEMM operators, so it neither
// keeps them (memory) nor carries the code that reads them (wasm); they
// count as Ignored.
const analysisInputs = false

// decodeFile walks one file with the package's tokenizer: the browser
// carries no encoding/json.
func decodeFile(rd *reader, r io.Reader) error { return scanFile(rd, r) }

// decodeDims and decodeTypes read a GEMM operator's Input Dims and Input
// type with the tokenizer.
func decodeDims(raw rawValue) ([][]int64, bool) { return scanDims(raw) }
func decodeTypes(raw rawValue) []string         { return scanTypes(raw) }
