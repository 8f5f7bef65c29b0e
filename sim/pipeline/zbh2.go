package pipeline

// ZBH2 returns ZB-H2, the second handcrafted schedule of Qi et al. 2024
// (§3.1 and Figure 4): device d runs 2(p−d)−1 forwards before its first
// backward, filling the warm-up bubble, and defers its W's by 2d backwards,
// which turns the schedule into a parallelogram: each device, once started,
// never idles when T_F = T_B = T_W. The bubble is (p−1)(T_F+T_B−2T_W) for
// m ≥ 2p when 2T_W ≤ T_F+T_B and T_W ≤ T_F; device 0 holds 2p−1
// microbatches. Back-to-back iterations need Qi et al.'s post-validation
// of the optimizer step, which replaces the synchronous flush.
func ZBH2(p, m int) Schedule {
	s := newSchedule("zb-h2", p, m, 1, loopLayout(p, 1))
	s.SplitBackward = true
	for d := range s.Order {
		s.Order[d] = zeroBubbleOrder(m, 2*(p-d)-1, 2*d)
	}
	return s
}
