//go:build js

package training

import "paraplay/sim/timeline"

// costBasis is nil in the browser, which prices no run yet (the wasm
// budget; costbasis.go is the host's).
func (tr *iteration) costBasis() *timeline.CostBasis { return nil }
