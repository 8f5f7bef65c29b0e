//go:build js

package main

import (
	"io"

	"paraplay/sim/plan"
)

// writeWhy prints nothing in a js build of the CLI (plan.Result.Why is
// the host's).
func writeWhy(io.Writer, []plan.Breakdown) {}

// planWhy is nothing in a js build of the CLI.
func planWhy(*plan.Result) []plan.Breakdown { return nil }
