//go:build js

package mgrit

import "paraplay/sim/scenario"

// extra keeps no record in the browser, which writes no captions or
// summary text (record.go has the host's).
func (*run) extra(*scenario.Scenario) {}
