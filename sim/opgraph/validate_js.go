//go:build js

package opgraph

// Validate has nothing to check in the browser, which builds only the
// preset graphs (validate.go).
func (Graph) Validate() error { return nil }
