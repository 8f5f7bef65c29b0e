//go:build js

package hw

import "errors"

// Validate is not in the browser build (validate.go checks the catalog on
// the host). The stub keeps the package's tests compiling for GOOS=js, as
// ./build.sh's `GOOS=js go vet ./sim/...` needs.
func (l Link) Validate() error { return errors.New("hw: Link.Validate is not in the browser build") }
