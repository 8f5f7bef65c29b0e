package pipeline

// GPipe returns the schedule of Huang et al. 2019 ("GPipe", NeurIPS): every
// device runs the forwards of all m microbatches, then all the backwards,
// in microbatch order (as drawn in Narayanan et al. 2021, Figure 3). Each
// device holds the activations of all m microbatches at the turn; the
// bubble is (p−1)(T_F+T_B+T_W) with makespan (m+p−1)(T_F+T_B+T_W).
// p and m must be positive; Validate reports otherwise.
func GPipe(p, m int) Schedule {
	s := newSchedule("gpipe", p, m, 1, loopLayout(p, 1))
	for d := range s.Order {
		for i := 0; i < m; i++ {
			s.Order[d] = append(s.Order[d], fwd(i))
		}
		for i := 0; i < m; i++ {
			s.Order[d] = append(s.Order[d], bwd(i))
		}
	}
	return s
}
