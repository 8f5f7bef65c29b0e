//go:build js

package hw

// The browser build refuses TPU slices and carries no TPU presets (see
// tpus_catalog.go).

func tpus() []GPU      { return nil }
func iciLinks() []Link { return nil }

// Pods returns no pods in the browser build.
func Pods() []Pod { return nil }
