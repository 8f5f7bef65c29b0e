package pipeline

// OneFOneB returns PipeDream-Flush, the 1F1B schedule with a flush at the
// end of each iteration (Narayanan et al. 2021, "Memory-Efficient
// Pipeline-Parallel DNN Training", ICML, and Megatron-LM, SC'21, Figure 4
// top; the steady state is Harlap et al. 2018's 1F1B). Device d runs
// min(p−d−1, m) warm-up forwards, then alternates one forward and one
// backward, then drains the remaining backwards. It has GPipe's makespan
// and bubble but holds at most min(p−d, m) microbatches on device d.
func OneFOneB(p, m int) Schedule {
	s := newSchedule("1f1b", p, m, 1, loopLayout(p, 1))
	for d := range s.Order {
		s.Order[d] = oneFOneBOrder(min(max(p-d-1, 0), m), m)
	}
	return s
}

// Retime gives device d extra[d] more warm-up forwards than 1F1B's
// p−d−1 (at most m in all), so that up to extra[d] more microbatches are
// in flight on it while their messages travel. Extra is one count per
// device; a shorter list leaves the other devices as they are. A device
// never warms up with more forwards than the one before it: device d+1
// runs its backward j after its forward w_{d+1}+j, which needs device d's,
// and device d runs that forward before its backward j only when
// w_{d+1} ≤ w_d; otherwise the pipeline would deadlock.
func (s *Schedule) Retime(extra []int) {
	prev := s.Microbatches
	for d := range s.Order {
		w := max(s.Stages-d-1, 0)
		if d < len(extra) {
			w += max(extra[d], 0)
		}
		w = min(w, prev)
		prev = w
		s.Order[d] = oneFOneBOrder(w, s.Microbatches)
	}
}

// oneFOneBOrder is one device's 1F1B order with warmup warm-up forwards.
func oneFOneBOrder(warmup, m int) []Op {
	ops := make([]Op, 0, 2*m)
	for i := 0; i < warmup; i++ {
		ops = append(ops, fwd(i))
	}
	for i := 0; i < m-warmup; i++ {
		ops = append(ops, fwd(warmup+i), bwd(i))
	}
	for i := m - warmup; i < m; i++ {
		ops = append(ops, bwd(i))
	}
	return ops
}

// ReadyFirst is 1F1B's order used only as a ranking (Liu et al. 2026,
// RRFP, "A Readiness-Driven Runtime for Pipeline-Parallel Training under
// Runtime Variability"): a runtime that decides as it goes lets each device
// run, whenever it is free, 1F1B's next op once its inputs have arrived,
// or a later ready op that cannot delay it, and start a forward only while
// it holds fewer than p microbatches (1F1B's peak on device 0). Execute,
// whose op times never vary, runs it as 1F1B; the training simulator
// decides at run time (Schedule.ReadyFirst).
func ReadyFirst(p, m int) Schedule {
	s := OneFOneB(p, m)
	s.Name, s.ReadyFirst = "ready-first", true
	return s
}
