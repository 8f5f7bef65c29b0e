package main

import (
	"fmt"

	"paraplay/sim/scenario"
)

// scheduleLegend explains the marks planSchedule adds, under the table.
const scheduleLegend = "schedule: -n = n layers fewer on the first and last model stages, ov = tensor-parallel communication overlapped with the GEMMs"

// planSchedule is the table's schedule column: the schedule, its chunks
// when interleaved, Llama 3's lighter first and last stages (-n) and
// tensor-parallel overlap (ov).
func planSchedule(q scenario.Parallel) string {
	sched := q.Schedule
	if q.Schedule == "interleaved" {
		sched += fmt.Sprintf(" v%d", q.VirtualStages)
	}
	if q.FirstLastFewer > 0 {
		sched += fmt.Sprintf(" -%d", q.FirstLastFewer)
	}
	if q.TPCommOverlap {
		sched += " ov"
	}
	return sched
}
