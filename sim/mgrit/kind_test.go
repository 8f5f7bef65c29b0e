package mgrit

import "paraplay/sim/strategytest"

func init() { strategytest.Register(Strategy{}) }
