//go:build js

package fault

import (
	"errors"
	"io"

	"paraplay/sim/units"
)

// errNotInBrowser is what the command line's writers return in the browser
// build, which draws a long run instead (report_text.go).
var errNotInBrowser = errors.New("fault: the text report is not written in the browser build")

// WriteText is not available in the browser build: see report_text.go.
func (r Report) WriteText(w io.Writer) error { return errNotInBrowser }

// WriteSweep is not available in the browser build: see report_text.go.
func WriteSweep(w io.Writer, points []Point, young units.Time) error { return errNotInBrowser }
