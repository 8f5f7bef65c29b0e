package training

import (
	"paraplay/sim/dataparallel"
	"paraplay/sim/strategytest"
)

// The scenarios of this package's tests are checked by its kind; the
// tests of what it refuses also make data-parallel scenarios.
func init() { strategytest.Register(dataparallel.Strategy{}, Strategy{}) }
