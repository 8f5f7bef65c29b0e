//go:build js

package hw

// powerProblems is empty in the browser, which reads the catalog the
// host's tests checked (validate.go).
func (GPU) powerProblems() []error { return nil }
