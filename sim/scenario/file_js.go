//go:build js

package scenario

import "errors"

// Parse is not available in the browser build: see file.go for why. The
// playground reads scenarios from URL queries (FromQuery) instead.
func Parse(data []byte) (Scenario, error) {
	return Default(), errors.New("scenario: YAML files are not read in the browser build; use a URL query")
}
