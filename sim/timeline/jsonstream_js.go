//go:build js

package timeline

import (
	"errors"
	"io"
)

// WriteJSON is not in the browser build (jsonstream.go).
func (tl *Timeline) WriteJSON(w io.Writer) error {
	return errors.New("timeline: WriteJSON is not in the browser build; download the Chrome trace")
}
