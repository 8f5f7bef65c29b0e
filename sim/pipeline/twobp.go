package pipeline

// GPipe2BP and OneFOneB2BP are the schedules of 2-stage backpropagation
// (Rae, Lee and Richings 2024, "2BP: 2-Stage Backpropagation", arXiv
// 2405.18047): GPipe's and 1F1B's orders with every backward split into
// backward-p1, the gradient for the stage's input (B, which the stage
// below waits for), and backward-p2, the gradient for its weights (W),
// and with every W deferred to the end of the iteration, after the
// device's last B. Upstream stages get their gradients after B alone, so
// the drain shortens by the W's; the W's then run back to back while the
// device would otherwise wait for the optimizer step. The price is memory:
// until its W runs, each microbatch keeps what the weight gradient needs
// (the linear layers' inputs and output gradients), so every device holds
// that for all m microbatches at the end (Result.PeakHeldW).
//
// On ideal devices both have the bubble b = (p−1)(T_F+T_B) and the
// makespan (m+p−1)(T_F+T_B) + m·T_W: device 0 starts first and ends last,
// and idles (p−1)(T_F+T_B) in between, the (p−1)(T_F+T_B+T_W) of GPipe
// and 1F1B less the (p−1)·T_W that the deferred W's no longer add to the
// chain of backwards. Qi et al. 2024's ZB-H1 goes further by slotting
// the W's into the drain's idle time instead of after it.
func GPipe2BP(p, m int) Schedule {
	s := newSchedule("gpipe-2bp", p, m, 1, loopLayout(p, 1))
	s.SplitBackward, s.ChargeHeldW = true, true
	for d := range s.Order {
		for i := 0; i < m; i++ {
			s.Order[d] = append(s.Order[d], fwd(i))
		}
		for i := 0; i < m; i++ {
			s.Order[d] = append(s.Order[d], bwd(i))
		}
		s.Order[d] = deferW(s.Order[d], m)
	}
	return s
}

// OneFOneB2BP is 1F1B with 2BP's split and deferred backward (see
// GPipe2BP): device d holds at most min(p−d, m) microbatches' full
// activations, as 1F1B does, and, at the end, the weight-gradient inputs
// of all m.
func OneFOneB2BP(p, m int) Schedule {
	s := newSchedule("1f1b-2bp", p, m, 1, loopLayout(p, 1))
	s.SplitBackward, s.ChargeHeldW = true, true
	for d := range s.Order {
		s.Order[d] = deferW(oneFOneBOrder(min(max(p-d-1, 0), m), m), m)
	}
	return s
}

// deferW appends the W of every microbatch, in order, to ops.
func deferW(ops []Op, m int) []Op {
	for i := 0; i < m; i++ {
		ops = append(ops, wgt(i))
	}
	return ops
}
