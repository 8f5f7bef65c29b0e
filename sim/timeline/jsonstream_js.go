//go:build js

package timeline

import (
	"errors"
	"io"
)

// WriteJSON is not available in the browser build: the app offers the
// Chrome trace, not the timeline's JSON, and jsonstream.go's reflection
// over encoding/json would grow the download.
func WriteJSON(tl *Timeline, w io.Writer) error {
	return errors.New("timeline: the browser build writes no timeline JSON; use paraplay run --timeline")
}
