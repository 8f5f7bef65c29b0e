package pipeline

// ZBH1 returns ZB-H1, the first handcrafted schedule of Qi et al. 2024
// ("Zero Bubble Pipeline Parallelism", ICLR, §3.1 and Figure 3): 1F1B with
// the backward split into B and W, the same p−d forwards in flight on
// device d as 1F1B, and device d deferring its W's by d backwards, so that
// the last devices run B's early and the first device's cool-down bubbles
// fill with W's. The bubble is (p−1)(T_F+T_B−T_W) when T_W ≤ T_F and
// m ≥ p, a third of 1F1B's when the three times are equal.
func ZBH1(p, m int) Schedule {
	s := newSchedule("zb-h1", p, m, 1, loopLayout(p, 1))
	s.SplitBackward = true
	for d := range s.Order {
		s.Order[d] = zeroBubbleOrder(m, p-d, d)
	}
	return s
}
