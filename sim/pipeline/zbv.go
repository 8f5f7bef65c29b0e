package pipeline

import "fmt"

// ZBV returns the V-shaped zero-bubble schedule ZB-V (Qi et al. 2024;
// repository sail-sg/zero-bubble-pipeline-parallelism): two chunks per
// device in a V (vLayout), backward split into B and W, and at most 2p
// chunk activations — p stage-equivalents, as 1F1B — on every device.
//
// Like the paper's, the order comes from a greedy list schedule (see
// zbvGreedy), here on equal op times: its bubble is then zero inside every
// device's window for every m ≥ 2p. ZBVFor schedules for given times, as
// the paper does, keeping a hand-made order instead where that is better.
// It needs m ≥ 2p.
func ZBV(p, m int) (Schedule, error) {
	return ZBVFor(p, m, Times{F: 1, B: 1, W: 1})
}

// ZBVFor is ZBV with the order searched for the op times t.
func ZBVFor(p, m int, t Times) (Schedule, error) {
	switch {
	case p < 1 || m < 1:
		return Schedule{}, fmt.Errorf("pipeline: zb-v: p = %d, m = %d; both must be at least 1", p, m)
	case m < 2*p:
		return Schedule{}, fmt.Errorf("pipeline: zb-v: m = %d microbatches is fewer than 2p = %d (the V's warm-up fills 2p chunks)", m, 2*p)
	}
	s := newSchedule("zb-v", p, m, 2, vLayout(p))
	s.SplitBackward = true
	// The greedy search is not always best when the times differ; keep
	// whichever of it and the hand-made V order (on DualPipeV's phases,
	// within DeepSeek's bound) leaves the smaller bubble for these times.
	s.Order = zbvGreedy(p, m, 2*p, t)
	hand := s
	hand.Order = make([][]Op, p)
	for d := range hand.Order {
		hand.Order[d] = zbvOrder(p, m, d)
	}
	if a, errA := run(s, t); errA == nil {
		if b, errB := run(hand, t); errB == nil && b.Bubble < a.Bubble {
			s = hand
		}
	} else {
		s = hand
	}
	return s, nil
}

// zbvOrder is the hand-made V order on DualPipeV's phases, with the main
// phase reordered to B(1), F(0), W, B(0), F(1), W so that no device holds
// more than 2p activations; ZBVFor keeps it where it beats the search.
func zbvOrder(p, m, d int) []Op {
	o := &vOrder{ops: make([]Op, 0, 6*m)}
	o.warmUp(p, d)
	for range m - 2*p + d + 1 {
		o.b(1, true)
		o.f(0)
		o.w()
		o.b(0, true)
		o.f(1)
		o.w()
	}
	o.coolDown(p, d)
	for len(o.deferred) > 0 {
		o.w()
	}
	return o.ops
}
