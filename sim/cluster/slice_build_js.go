//go:build js

package cluster

import "errors"

// BuildSlice: TPU slices are host-only for now (slice_build.go).
func BuildSlice(Slice) (*Built, error) {
	return nil, errors.New("cluster.topology: TPU slices run in the command line; the browser build leaves them out")
}
