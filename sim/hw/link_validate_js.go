//go:build js

package hw

import "errors"

// Validate is not in the browser build (link_validate.go checks the
// catalog on the host).
func (l Link) Validate() error { return errors.New("hw: Link.Validate is not in the browser build") }
