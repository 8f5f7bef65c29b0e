//go:build js

package topo

import "errors"

// Validate is not in the browser build (validate.go).
func (t *Topology) Validate() error { return errors.New("topo: Validate is not in the browser build") }
