package pipeline

// newSchedule returns an empty schedule with Order ready to append to.
func newSchedule(name string, p, m, v int, layout []Place) Schedule {
	return Schedule{
		Name: name, Stages: p, Microbatches: m, Chunks: v,
		Order: make([][]Op, p), Layout: layout,
	}
}

// fwd, bwd and wgt build ops on chunk 0, for the one-chunk schedules.
func fwd(mb int) Op { return Op{Kind: F, Microbatch: mb} }
func bwd(mb int) Op { return Op{Kind: B, Microbatch: mb} }
func wgt(mb int) Op { return Op{Kind: W, Microbatch: mb} }
