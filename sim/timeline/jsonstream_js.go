//go:build js

package timeline

import (
	"errors"
	"io"
)

// WriteJSON is not in the wasm, which never writes a timeline as JSON
// (jsonstream.go is left out: 5.6 KB gzipped).
func (tl *Timeline) WriteJSON(io.Writer) error {
	return errors.New("timeline: WriteJSON is not in the wasm build")
}
