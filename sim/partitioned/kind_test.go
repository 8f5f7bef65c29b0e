package partitioned

import (
	"paraplay/sim/nccltest"
	"paraplay/sim/strategytest"
	"paraplay/sim/training"
)

// The scenarios of this package's tests are checked by its kind, and by
// the kinds its phases and checks run.
func init() { strategytest.Register(Strategy{}, training.Strategy{}, nccltest.Strategy{}) }
