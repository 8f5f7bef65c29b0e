//go:build js

package main

import (
	"fmt"
	"io"
)

// tpu: the torus collective is host-only (sim/nccltest).
func (f *collectiveFlags) tpu(_, stderr io.Writer) int {
	fmt.Fprintln(stderr, "paraplay collective: --topology: the torus collective is not in this build")
	return exitUsage
}
