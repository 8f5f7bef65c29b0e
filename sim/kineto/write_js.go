//go:build js

package kineto

import (
	"errors"
	"io"

	"paraplay/sim/timeline"
)

// WriteRank is the command line's (write.go, which needs encoding/json);
// the browser writes no Kineto traces.
func WriteRank(w io.Writer, tl *timeline.Timeline, gpu int) error {
	return errors.New("kineto: writing Kineto traces is for the command line")
}
