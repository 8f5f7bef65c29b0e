package run

import (
	"fmt"
	"sync"

	"paraplay/sim/dataparallel"
	"paraplay/sim/inference"
	"paraplay/sim/localsgd"
	"paraplay/sim/mgrit"
	"paraplay/sim/nccltest"
	"paraplay/sim/opgraph"
	"paraplay/sim/paramserver"
	"paraplay/sim/partitioned"
	"paraplay/sim/rlhf"
	"paraplay/sim/scenario"
	"paraplay/sim/splitlearn"
	"paraplay/sim/sppo"
	"paraplay/sim/strategy"
	"paraplay/sim/swarm"
	"paraplay/sim/training"
)

// builtins are the strategies ParaPlay ships, in the order forms and
// messages list them. Adding a strategy is adding its package and a line
// here (ARCHITECTURE.md, "How to add a strategy").
var builtins = []strategy.Strategy{
	dataparallel.Strategy{},
	nccltest.Strategy{},
	training.Strategy{},
	paramserver.Strategy{},
	localsgd.Strategy{},
	splitlearn.Strategy{},
	rlhf.Strategy{},
	inference.Strategy{},
	partitioned.Strategy{},
	swarm.Strategy{},
	opgraph.Strategy{},
	mgrit.Strategy{},
	sppo.Strategy{},
}

// registry is every strategy registered, built-ins first.
var registry struct {
	sync.RWMutex
	list []strategy.Strategy
}

func init() {
	for _, st := range builtins {
		Register(st)
	}
}

// Register makes st a strategy ParaPlay runs: Simulate, the CLI, the
// browser app and the site find it by its name, and its scenario half goes
// to scenario.Register so that its keys decode. Registering the same
// strategy again does nothing; another of the same name panics, as
// database/sql's Register does.
func Register(st strategy.Strategy) {
	registry.Lock()
	defer registry.Unlock()
	for _, old := range registry.list {
		if old.Name() == st.Name() {
			if old != st {
				panic(fmt.Sprintf("run: strategy %q registered twice", st.Name()))
			}
			return
		}
	}
	scenario.Register(st)
	registry.list = append(registry.list, st)
}

// Lookup returns the registered strategy named name.
func Lookup(name string) (strategy.Strategy, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for _, st := range registry.list {
		if st.Name() == name {
			return st, true
		}
	}
	return nil, false
}

// Strategies lists the registered strategies, in the order they were
// registered.
func Strategies() []strategy.Strategy {
	registry.RLock()
	defer registry.RUnlock()
	return append([]strategy.Strategy(nil), registry.list...)
}
