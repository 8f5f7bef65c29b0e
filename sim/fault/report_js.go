//go:build js

package fault

import (
	"errors"
	"io"

	"paraplay/sim/units"
)

// errNoText: the browser build leaves the report's text out (report_text.go
// says why); the page draws a long run instead of printing it.
var errNoText = errors.New("fault: the report's text is not in the browser build")

// WriteText is not available in the browser build.
func (r Report) WriteText(w io.Writer) error { return errNoText }

// WriteSweep is not available in the browser build.
func WriteSweep(w io.Writer, points []Point, young units.Time) error { return errNoText }
