package pipeline

import "fmt"

// ZBV returns a V-shaped zero-bubble schedule in the spirit of ZB-V (Qi et
// al. 2024; repository sail-sg/zero-bubble-pipeline-parallelism): two chunks
// per device in a V (vLayout), backward split into B and W, and at most 2p
// chunk activations — p stage-equivalents, as 1F1B — on every device.
//
// The reference ZB-V order is the output of a cost-driven greedy search.
// This one is handcrafted on DualPipeV's phases instead (see DualPipeV),
// with the main phase reordered to B(1), F(0), W, B(0), F(1), W so that no
// device ever holds more than 2p activations. It does not reach the
// paper's near-zero bubble: with T_F = T_B = T_W its bubble is (p−1)·T_F
// (a third of 1F1B's with the same per-chunk times), and the tests check
// only DeepSeek's DualPipeV bound (p−1)(T_F&B + T_B + T_W − 3T_W), which it
// meets. It needs m ≥ 2p.
func ZBV(p, m int) (Schedule, error) {
	switch {
	case p < 1 || m < 1:
		return Schedule{}, fmt.Errorf("pipeline: zb-v: p = %d, m = %d; both must be at least 1", p, m)
	case m < 2*p:
		return Schedule{}, fmt.Errorf("pipeline: zb-v: m = %d microbatches is fewer than 2p = %d (the V's warm-up fills 2p chunks)", m, 2*p)
	}
	s := newSchedule("zb-v", p, m, 2, vLayout(p))
	s.SplitBackward = true
	for d := range s.Order {
		s.Order[d] = zbvOrder(p, m, d)
	}
	return s, nil
}

func zbvOrder(p, m, d int) []Op {
	o := &vOrder{ops: make([]Op, 0, 6*m)}
	for range 2 * (p - d - 1) {
		o.f(0)
	}
	for range d + 1 {
		o.f(0)
		o.f(1)
	}
	for range p - d - 1 {
		o.b(1, true)
		o.w()
		o.f(1)
	}
	for range m - 2*p + d + 1 {
		o.b(1, true)
		o.f(0)
		o.w()
		o.b(0, true)
		o.f(1)
		o.w()
	}
	for range p - d - 1 {
		o.b(1, false)
		o.f(1)
		o.b(0, false)
	}
	for i := range d + 1 {
		half := i >= (d+1)/2
		o.b(1, half && (i > (d+1)/2 || d%2 == 1))
		o.b(0, half)
	}
	for range p - d - 1 {
		o.w()
		o.b(0, true)
	}
	for len(o.deferred) > 0 {
		o.w()
	}
	return o.ops
}
