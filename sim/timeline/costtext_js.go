//go:build js

package timeline

import "io"

// writeCost prints nothing in the browser, which shows no text summary
// (costtext.go prints it elsewhere).
func (s *Summary) writeCost(io.Writer) {}
