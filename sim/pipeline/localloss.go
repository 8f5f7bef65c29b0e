package pipeline

// LocalLoss returns a pipeline whose stages each train against a local
// loss (the "local parallelism" of Laskin et al. 2020, arXiv 2012.03837;
// SCPL, arXiv 2602.00062, uses local contrastive losses the same way): a
// stage's backward needs only its own forward, so every device alternates
// F and B from the first microbatch on, with no warm-up and no wait for a
// gradient from downstream. Device d starts when the first activation
// reaches it, at d·T_F, and then never idles, so the makespan is
// m(T_F+T_B+T_W) + (p−1)T_F, the per-device bubble is zero and each device
// holds one microbatch's activations at a time. What the schedule gives up
// is end-to-end backprop: the model it trains is not the one plain
// backprop would (the papers' accuracy trade-off, not modelled here).
func LocalLoss(p, m int) Schedule {
	s := newSchedule("local-loss", p, m, 1, loopLayout(p, 1))
	s.LocalLoss = true
	for d := range s.Order {
		for i := 0; i < m; i++ {
			s.Order[d] = append(s.Order[d], fwd(i), bwd(i))
		}
	}
	return s
}
