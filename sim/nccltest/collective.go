package nccltest

import (
	"fmt"

	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Collective runs one collective schedule in detail on topology t, rank r
// on GPU gpus[r]: every message is a flow on the links, sharing them with
// the others. The timeline's only collective is the schedule.
func Collective(t *topo.Topology, sch collective.Schedule, gpus []int, title string) (*timeline.Timeline, error) {
	if err := checkPlacement(t, sch.Ranks, gpus); err != nil {
		return nil, err
	}
	if err := sch.Validate(); err != nil {
		return nil, fmt.Errorf("run: invalid schedule: %w", err)
	}
	g := taskgraph.New(t, title)
	g.Reserve(len(sch.Transfers), len(sch.Transfers), len(sch.Transfers)+len(sch.Transfers)/4)
	g.AddSchedule(sch, gpus, nil, "")
	return g.Finish()
}

// CollectiveAnalytic records a collective priced by a closed form instead
// of simulated message by message: one span of length d for all its GPUs.
// It is the "analytic" fidelity, for runs too large to animate.
func CollectiveAnalytic(t *topo.Topology, op, algo string, bytes units.Bytes, gpus []int, d units.Time, title string) (*timeline.Timeline, error) {
	if err := checkPlacement(t, len(gpus), gpus); err != nil {
		return nil, err
	}
	if d <= 0 {
		return nil, fmt.Errorf("run: analytic collective of duration %v", d)
	}
	tl := taskgraph.NewTimeline(t, title)
	tl.Fidelity = taskgraph.Analytic
	tl.Collectives = []timeline.Collective{{Name: op, Algorithm: algo, Ranks: len(gpus), Bytes: bytes,
		GPUs: append([]int(nil), gpus...), Start: 0, End: d}}
	tl.End = d
	if err := taskgraph.Check(tl, "run"); err != nil {
		return nil, err
	}
	return tl, nil
}

// bottleneck is the α and bandwidth an α–β formula should use for a
// collective over gpus (topo.Paths.Bottleneck), at least 2 of them.
func bottleneck(t *topo.Topology, gpus []int) (units.Time, units.Bandwidth, error) {
	if len(gpus) < 2 {
		return 0, 0, fmt.Errorf("run: a collective needs at least 2 ranks, got %d", len(gpus))
	}
	return topo.NewPaths(t).Bottleneck(gpus)
}

func checkPlacement(t *topo.Topology, ranks int, gpus []int) error {
	if len(gpus) != ranks {
		return fmt.Errorf("run: %d ranks placed on %d GPUs", ranks, len(gpus))
	}
	seen := make(map[int]bool, len(gpus))
	for r, g := range gpus {
		if !t.IsGPU(g) || seen[g] {
			return fmt.Errorf("run: rank %d on GPU %d, which does not exist or holds another rank", r, g)
		}
		seen[g] = true
	}
	return nil
}
