//go:build js

package main

import (
	"io"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// writeTorusBook prints nothing in a js build, which runs no TPU slice.
func writeTorusBook(io.Writer, scenario.Scenario, *timeline.Timeline) error { return nil }
