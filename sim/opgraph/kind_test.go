package opgraph

import "paraplay/sim/strategytest"

// The scenarios of this package's tests are checked by its kind.
func init() { strategytest.Register(Strategy{}) }
