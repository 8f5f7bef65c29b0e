//go:build js

package strategy

// Captioner is empty in the browser build, which writes no captions: see
// captioner.go.
type Captioner interface{}
