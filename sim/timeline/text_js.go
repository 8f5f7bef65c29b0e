//go:build js

package timeline

import (
	"errors"
	"io"
)

// textReport is empty in the browser build, which prints no summary
// (text.go holds the writers).
type textReport interface{}

// WriteText is not available in the browser build.
func (s Summary) WriteText(w io.Writer) error {
	return errors.New("timeline: the summary's text is not in the browser build")
}
