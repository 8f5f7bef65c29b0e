//go:build js

package sppo

import "paraplay/sim/timeline"

// extra keeps no record in the browser, which writes no captions or
// summary text (record.go has the host's).
func (*run) extra(*timeline.Timeline) {}
