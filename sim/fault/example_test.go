package fault_test

import (
	"fmt"

	"paraplay/sim/fault"
	"paraplay/sim/units"
)

// The Llama 3 report's failure rate on its 2,048 nodes, and the checkpoint
// interval Young's formula gives for a 30-second checkpoint.
func ExampleYoungInterval() {
	mtbf := units.Round(86400 / (fault.Llama3RatePerNodeDay * 2048))
	fmt.Println("job MTBF:", fault.Human(mtbf))
	fmt.Println("Young:", fault.Human(fault.YoungInterval(30*units.Second, mtbf)))
	fmt.Println("Daly: ", fault.Human(fault.DalyInterval(30*units.Second, mtbf)))
	// Output:
	// job MTBF: 3.09h
	// Young: 13.6m
	// Daly:  13.3m
}

// A failure replayed against checkpoint-restart: it costs the 3 minutes
// of work since the last checkpoint, detection and restart.
func ExampleReplay() {
	minute := 60 * units.Second
	mix, _ := fault.ParseMix(fault.DefaultMix)
	cfg := fault.Config{
		Job: fault.Job{Nodes: 16, Iteration: 10 * units.Second, Replicas: 2, Stages: 1, Microbatches: 1},
		Recovery: fault.Recovery{Policy: fault.CheckpointRestart, CheckpointInterval: 10 * minute,
			CheckpointCost: minute, RestartCost: 5 * minute, HeartbeatTimeout: 30 * units.Second},
		Mix: mix, Work: 60 * minute,
	}
	rep, _ := fault.Replay(cfg, []fault.Failure{{At: 25 * minute, Node: 3, Cause: "gpu"}})
	fmt.Println("wall:", fault.Human(rep.Wall), "lost work:", fault.Human(rep.Lost.Work))
	fmt.Printf("goodput: %.1f%%\n", 100*rep.Goodput)
	// Output:
	// wall: 1.23h lost work: 3.0m
	// goodput: 81.6%
}
