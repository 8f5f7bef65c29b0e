package run

import (
	"paraplay/sim/dataparallel"
	"paraplay/sim/inference"
	"paraplay/sim/localsgd"
	"paraplay/sim/nccltest"
	"paraplay/sim/paramserver"
	"paraplay/sim/rlhf"
	"paraplay/sim/scenario"
	"paraplay/sim/splitlearn"
	trainingrun "paraplay/sim/training"
)

// builtins are the strategies ParaPlay ships, in the order forms and
// messages list them.
var builtins = []scenario.Kind{
	dataparallel.Strategy{}, nccltest.Strategy{}, trainingrun.Strategy{}, paramserver.Strategy{},
	localsgd.Strategy{}, splitlearn.Strategy{}, rlhf.Strategy{}, inference.Strategy{},
}

func init() {
	for _, k := range builtins {
		scenario.Register(k)
	}
}
