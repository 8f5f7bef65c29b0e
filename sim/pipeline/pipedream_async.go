package pipeline

// PipeDreamAsync returns the asynchronous PipeDream schedule (Harlap et al.
// 2018, "PipeDream: Fast and Efficient Pipeline Parallel DNN Training";
// Narayanan et al., SOSP 2019): 1F1B with no flush. Order is a window of m
// microbatches of the continuous stream, from an empty pipeline: the same
// startup, 1F1B steady state and drain as OneFOneB, but a real run never
// drains, so the steady state is what counts and Execute reports
// Result.PerMicrobatch instead of a flush bubble. Because the backward of a
// microbatch must use the weights its forward used, device d stashes p−d
// weight versions (weight stashing): WeightVersions[d] = p − d.
func PipeDreamAsync(p, m int) Schedule {
	s := OneFOneB(p, m)
	s.Name = "pipedream-async"
	s.Async = true
	s.WeightVersions = make([]int, p)
	for d := range s.WeightVersions {
		s.WeightVersions[d] = p - d
	}
	return s
}
