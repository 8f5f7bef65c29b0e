package sppo

import "paraplay/sim/strategytest"

func init() { strategytest.Register(Strategy{}) }
