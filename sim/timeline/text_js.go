//go:build js

package timeline

import (
	"errors"
	"io"
)

// errNotInBrowser is what the command line's writers return in the browser
// build, which leaves them out (summary_text.go, jsonstream.go): the
// browser shows a run in its own panels and exports a Chrome trace.
var errNotInBrowser = errors.New("timeline: the text summary and the timeline JSON are not written in the browser build")

// WriteText is not available in the browser build: see summary_text.go.
func (s Summary) WriteText(w io.Writer) error { return errNotInBrowser }

// WriteJSON is not available in the browser build: see jsonstream.go.
func WriteJSON(tl *Timeline, w io.Writer) error { return errNotInBrowser }

// The records' reports print nothing in the browser build: see
// records_text.go.
func (s *InferenceSummary) WriteText(io.Writer) {}
func (s *RLHFSummary) WriteText(io.Writer)      {}
func (s *SplitSummary) WriteText(io.Writer)     {}
func (s *AsyncSummary) WriteText(io.Writer)     {}
func (r iterationsReport) WriteText(io.Writer)  {}
