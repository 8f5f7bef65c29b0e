//go:build !js

package run

import "paraplay/sim/sppo"

// SPPO's offloaded sequence pipeline is registered on the host only: the
// command line, the site's captions and static demos. Its simulation is
// about 16 KB of the browser's gzipped download, over the wasm budget, so
// the browser build refuses an sppo scenario as it refuses any unknown
// strategy (registry.go's init runs first, so the built-ins keep their
// order).
func init() { Register(sppo.Strategy{}) }
