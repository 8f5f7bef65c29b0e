//go:build js

package training

// The browser build refuses TPU slices (scenario/torus_check_js.go), so
// no group is ever a torus box there: onTorus and torusTimeOf stay nil
// and training's collectives are rings.
