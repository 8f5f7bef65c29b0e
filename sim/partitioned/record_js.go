//go:build js

package partitioned

import "io"

// WriteText prints nothing in the browser build, which shows no summary
// (record_text.go).
func (r report) WriteText(io.Writer) {}
