package swarm

import "paraplay/sim/strategytest"

func init() { strategytest.Register(Strategy{}) }
